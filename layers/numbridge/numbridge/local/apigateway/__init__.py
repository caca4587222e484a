"""API Gateway on one machine: the WebSocket endpoint, its events and routes, ``@connections``,
origins and the static client.
"""
