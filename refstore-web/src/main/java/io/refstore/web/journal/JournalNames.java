package io.refstore.web.journal;

import java.io.IOException;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

import io.refstore.web.fleet.FleetJobs;
import io.refstore.web.repos.RepoRegistry;

/**
 * The one name the journal's tables know a repository by, and the name its answers show.
 * A client names a repository by its path ({@code team/a.git}) or qualified by its
 * storage ({@code s-beta/team/a.git}, as the dashboard and the Fleet page name it when
 * the fleet has several storages); the journal keeps it under its storage and path
 * ({@link RepoRegistry#identify}), always qualified, so that both names find one journal,
 * one file is ingested into one source row, two storages holding the same path keep two
 * journals, and a node knows which rows are of its own storages. Answers name a
 * repository as the console does ({@link FleetJobs#canonical}): by its path alone while
 * the fleet has one storage, else qualified, so that a fleet-wide answer says where each
 * repository is. Thread-safe.
 */
@Component
class JournalNames {

	private final RepoRegistry registry;

	private final ObjectProvider<FleetJobs> fleet;

	JournalNames(RepoRegistry registry, ObjectProvider<FleetJobs> fleet) {
		this.registry = registry;
		this.fleet = fleet;
	}

	/**
	 * The name the journal keeps the repository {@code name} under:
	 * {@code <storage>/<path>}.
	 * @throws io.refstore.web.repos.RepoNotFoundException if no storage of this node
	 * holds it
	 */
	String key(String name) throws IOException {
		return this.registry.identify(name).qualified();
	}

	/**
	 * Whether {@code key} (a name the journal keeps) is a repository in a storage of this
	 * node: what this node's sweeps may touch.
	 */
	boolean here(String key) throws IOException {
		int slash = key.indexOf('/');
		return slash > 0 && this.registry.storages().containsKey(key.substring(0, slash)) && this.registry.holds(key);
	}

	/** How answers name repositories, as of now. */
	Shown shown() {
		FleetJobs jobs = this.fleet.getIfAvailable();
		return new Shown((jobs != null) ? jobs.onlyStorage() : null);
	}

	/**
	 * Names repositories as the console does.
	 *
	 * @param only the one storage of the fleet, or {@code null} when it has several
	 */
	record Shown(String only) {

		/** The name of the repository the journal keeps under {@code key}. */
		String name(String key) {
			if (this.only == null || key == null) {
				return key;
			}
			String prefix = this.only + "/";
			return (key.startsWith(prefix) && key.length() > prefix.length()) ? key.substring(prefix.length()) : key;
		}

		/** The entry, its repository named as the console does. */
		JournalEntryView entry(JournalEntryView entry) {
			String name = name(entry.repository());
			return name.equals(entry.repository()) ? entry
					: new JournalEntryView(entry.id(), name, entry.time(), entry.ref(), entry.oldValue(),
							entry.newValue(), entry.deletion(), entry.writer(), entry.identity(), entry.transaction());
		}

	}

}
