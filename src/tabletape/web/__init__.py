"""The web layer: the pages `tabletape serve` sends and the HTTP around them (Starlette).

Beside the CLI, above app: it maps app's use cases (app.live, app.play) and their domain
refusals to routes and status codes. No other layer knows Starlette (an import contract).
"""
