"""The AWS adapters of the service's ports: SQS timers and bot turns, and posting
through the API Gateway management API."""
