-- Version 2: a player's best time (and where it was set) is read by index.
CREATE INDEX solves_by_player_time ON solves (player_uuid, seconds);
