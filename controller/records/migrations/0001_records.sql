-- Version 1: one row per player per solve, and the per-room summaries imported once from the
-- state files (docs/records.md, "Schema"). Portable SQL: SQLite and PostgreSQL read it alike.
CREATE TABLE solves (
    solve_id TEXT PRIMARY KEY,
    server TEXT NOT NULL,
    room TEXT NOT NULL,
    kind TEXT NOT NULL,
    seed BIGINT,
    daily_date TEXT,
    player_uuid TEXT NOT NULL,
    player_name TEXT NOT NULL,
    seconds DOUBLE PRECISION NOT NULL,
    clicks INTEGER NOT NULL,
    par INTEGER,
    solved_at DOUBLE PRECISION NOT NULL,
    solved_on TEXT NOT NULL
);
CREATE INDEX solves_by_player ON solves (player_uuid, solved_at);
CREATE INDEX solves_by_room ON solves (room);
CREATE INDEX solves_by_daily ON solves (daily_date);

CREATE TABLE imported_records (
    server TEXT NOT NULL,
    room TEXT NOT NULL,
    daily_date TEXT NOT NULL,
    player_name TEXT NOT NULL,
    solves INTEGER NOT NULL,
    best DOUBLE PRECISION,
    recent TEXT NOT NULL,
    PRIMARY KEY (server, room, daily_date, player_name)
);

CREATE TABLE imports (
    server TEXT NOT NULL,
    room TEXT NOT NULL,
    imported_at DOUBLE PRECISION NOT NULL,
    players INTEGER NOT NULL,
    PRIMARY KEY (server, room)
);
