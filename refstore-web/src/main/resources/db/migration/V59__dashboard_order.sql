-- The console's dashboard reads refstore_fleet_repository a page at a time, in one of four orders. Each order has an
-- index of exactly its columns, directions and null placement, so that a page (the first or the 2,000th) is read
-- from the index in order instead of sorting every repository of the fleet: worst first (unreadable, then due for
-- maintenance, then most loose refs, then most refs), most refs, largest. Name order is the primary key's.
CREATE INDEX refstore_fleet_repository_worst ON refstore_fleet_repository
	(maintenance_due DESC NULLS FIRST, loose_refs DESC NULLS FIRST, refs DESC NULLS FIRST, storage, path);
CREATE INDEX refstore_fleet_repository_refs ON refstore_fleet_repository (refs DESC NULLS LAST, storage, path);
CREATE INDEX refstore_fleet_repository_bytes ON refstore_fleet_repository (bytes DESC NULLS LAST, storage, path);
