"""The data: the data directory, the stores it opens (SQLite, or DynamoDB through moto in-
process), and the host commands' store arguments.
"""
