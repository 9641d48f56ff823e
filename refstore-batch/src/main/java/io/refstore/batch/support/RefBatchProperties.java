package io.refstore.batch.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;

import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.ProtectedRefs;

/**
 * Settings of the refstore jobs ({@code refstore.*}).
 *
 * @param repositories where repositories may live
 * @param jobs lease and instance settings
 * @param deletion mass deletion settings
 */
@ConfigurationProperties("refstore")
@Validated
public record RefBatchProperties(@Valid @DefaultValue Repositories repositories, @Valid @DefaultValue Jobs jobs,
		@DefaultValue Deletion deletion) {

	/**
	 * @param roots the directories repositories are looked up in, in order
	 * ({@code refstore.repositories.roots}); created on start if missing. The one binding
	 * of this setting: the web app's registry resolves names with the
	 * {@code RepositoryPaths} bean made from it, and takes only its other
	 * {@code refstore.repositories.*} settings from {@code RepoProperties}
	 * @param storages names of roots, as hosting software names its storages
	 * ({@code refstore.repositories.storages.<name>=<directory>}): a directory not among
	 * {@code roots} is a root after them; a root without a name is {@code default} (the
	 * first), {@code default-2}... A repository is then also found as
	 * {@code <storage>/<name>}
	 * @param implicitRoot the root while neither {@code roots} nor {@code storages} is
	 * set ({@code refstore.repositories.implicit-root}; the web app makes it
	 * {@code ${refstore.home}/repos}): a node that names its storages has no unnamed root
	 * besides them, which would be a storage {@code default} of its own on every node of
	 * a fleet
	 */
	public record Repositories(List<Path> roots, Map<String, Path> storages, Path implicitRoot) {

		private static final String NO_ROOT = "refstore.repositories.roots: no repository root is set (set"
				+ " refstore.repositories.roots or refstore.repositories.storages.<name>)";

		public Repositories {
			roots = (roots == null) ? List.of() : List.copyOf(roots);
			storages = (storages == null) ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(storages));
		}

		/**
		 * Whether some root is set, checked when the settings are bound: a start without
		 * one stops naming the setting.
		 */
		@AssertTrue(message = NO_ROOT)
		public boolean isRootSet() {
			return !this.roots.isEmpty() || !this.storages.isEmpty() || this.implicitRoot != null;
		}

		/**
		 * The unnamed roots to search: {@code roots}, else none if storages are named,
		 * else {@code implicitRoot}.
		 * @throws IllegalStateException if none of the three is set
		 */
		public List<Path> searchRoots() {
			if (!this.roots.isEmpty() || !this.storages.isEmpty()) {
				return this.roots;
			}
			if (this.implicitRoot == null) {
				throw new IllegalStateException(NO_ROOT);
			}
			return List.of(this.implicitRoot);
		}

	}

	/**
	 * @param instanceId this application instance's name in the lease table and job
	 * contexts (default: the host name); instances sharing a database need distinct
	 * names, and a restarted instance keeps its name so that it recognises the executions
	 * it left running
	 * @param leaseTtl how long a lease lives without a heartbeat (default 60 s);
	 * heartbeats come every third of it
	 */
	public record Jobs(String instanceId, @DefaultValue("60s") @DurationMin(seconds = 1) Duration leaseTtl) {

	}

	/**
	 * @param protectedRefs what a deletion plan keeps whatever it selects, unless an
	 * ADMIN overrides it with a reason ({@code refstore.deletion.protected-refs}):
	 * {@code for-each-ref} patterns, and {@code HEAD} for the branch it points to;
	 * default {@link ProtectedRefs#DEFAULT_PATTERNS}
	 */
	public record Deletion(List<String> protectedRefs) {

		public Deletion {
			protectedRefs = (protectedRefs == null) ? ProtectedRefs.DEFAULT_PATTERNS : List.copyOf(protectedRefs);
		}

		/**
		 * The protection these settings describe.
		 * @throws IllegalStateException naming the setting and the entry that is
		 * malformed or holds a comma
		 */
		public ProtectedRefs protection() {
			for (String entry : this.protectedRefs) {
				if (entry.contains(",")) {
					throw new IllegalStateException(
							"refstore.deletion.protected-refs '" + entry + "': an entry must not hold a comma");
				}
			}
			try {
				return ProtectedRefs.of(this.protectedRefs);
			}
			catch (InvalidSelectionException ex) {
				throw new IllegalStateException(
						"refstore.deletion.protected-refs '" + ex.value() + "': " + ex.problem());
			}
		}

	}

}
