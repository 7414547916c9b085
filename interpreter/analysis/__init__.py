"""What stands on the engine to study games: simulation, statistics, reports and play logs."""
