"""Lambda on one machine: the functions loaded in-process, their context and environment, and
their SQS- and EventBridge-shaped triggers (timers, bot turns).
"""
