"""What Cognito is in AWS: local accounts — sign-in over HTTP, passwords, attempts, and the
host's ``numbridge account`` command.
"""
