"""Infrastructure: the store and its databases, worker pools, settings, logs, metrics and health."""
