"""Authorization on screen: the Auth panel and its timeline model, and the browser opener the login
flow uses."""
