-- The fleet's control plane: every instance is a node that registers itself with the URL other nodes reach it at
-- and keeps a heartbeat (database time, so that the nodes' clocks do not matter); each node keeps the inventory of
-- the repositories in its storages.
CREATE TABLE refstore_node (
	name VARCHAR(200) NOT NULL PRIMARY KEY,
	url VARCHAR(1024),
	version VARCHAR(64),
	started_at TIMESTAMP WITH TIME ZONE NOT NULL,
	heartbeat_at TIMESTAMP WITH TIME ZONE NOT NULL,
	inventory_at TIMESTAMP WITH TIME ZONE,
	-- the repositories its last inventory recorded, so that listing the nodes counts no rows
	repositories BIGINT DEFAULT 0 NOT NULL
);

-- A storage is one directory, named fleet-wide: the file .refstore-storage in it holds its id. Usually one node
-- holds it; nodes that mount the same directory (shared storage) hold it together, which the id proves; a storage
-- of that name elsewhere (another id) is refused.
CREATE TABLE refstore_storage (
	name VARCHAR(100) NOT NULL,
	node VARCHAR(200) NOT NULL REFERENCES refstore_node (name),
	storage_id VARCHAR(64) NOT NULL,
	root VARCHAR(4096) NOT NULL,
	PRIMARY KEY (name, node)
);
CREATE INDEX refstore_storage_node ON refstore_storage (node);

-- node is the node that recorded the row; refs, bytes and maintenance_due are null for a repository that could
-- not be read, and error says why
CREATE TABLE refstore_fleet_repository (
	storage VARCHAR(100) NOT NULL,
	path VARCHAR(1024) NOT NULL,
	node VARCHAR(200) NOT NULL,
	format VARCHAR(20),
	refs BIGINT,
	loose_refs BIGINT,
	bytes BIGINT,
	maintenance_due BOOLEAN,
	error VARCHAR(1024),
	seen_at TIMESTAMP WITH TIME ZONE NOT NULL,
	PRIMARY KEY (storage, path)
);
CREATE INDEX refstore_fleet_repository_path ON refstore_fleet_repository (path);
CREATE INDEX refstore_fleet_repository_node ON refstore_fleet_repository (node, storage, path);
