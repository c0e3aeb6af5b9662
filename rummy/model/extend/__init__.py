"""Tables where plays only grow (Robber and lay-off rummy): how each play may grow, and choosing the turn."""
