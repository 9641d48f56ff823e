package io.refstore.core.repo;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import io.refstore.core.repo.DiscoveredRepositories.SkipReason;

/**
 * Finds the repositories under the roots of a {@link RepositoryPaths} by their
 * directories alone: a directory holding {@code HEAD} (a file) and {@code objects/} is a
 * bare repository, one holding a {@code .git} entry a working tree. No file is opened and
 * the walk never descends into a repository.
 * <p>
 * It knows two layouts. Plain trees ({@code project.git}, {@code team/sub/project.git})
 * are walked down to {@code maxDepth} levels below a root. GitLab's hashed storage is
 * walked by its layout wherever one of its top directories appears:
 * {@code @hashed/ab/cd/<sha256>.git} with the {@code .wiki.git} and {@code .design.git}
 * siblings, {@code @snippets/ab/cd/<sha256>.git}, {@code @groups/ab/cd/<sha256>.wiki.git}
 * (group wikis), {@code @pools/ab/cd/<sha256>.git} (object pools) and Gitaly Cluster's
 * {@code @cluster/repositories/ab/cd/<id>} and {@code @cluster/pools/ab/cd/<id>}. There
 * only the shard levels are listed and only names the layout makes are taken; their depth
 * is fixed, so {@code maxDepth} does not bound it.
 * <p>
 * Cost: one directory listing per directory walked, one {@code lstat} per entry of a
 * directory that is not a repository, and two per repository found (its {@code HEAD} and
 * {@code objects}). Symbolic links are never followed: a repository reached through one
 * is found where it lives, or not at all if that is outside the root (as
 * {@link RepositoryPaths} refuses names through such links). What is skipped is counted
 * by {@link SkipReason}. Thread-safe: every call walks afresh.
 */
public final class RepositoryDiscovery {

	/**
	 * The depth bound of plain trees unless configured: deep enough for nested groups.
	 */
	public static final int DEFAULT_MAX_DEPTH = 8;

	private static final Pattern SHARD = Pattern.compile("[0-9a-f]{2}");

	private static final String SHA256 = "[0-9a-f]{64}";

	/**
	 * GitLab's hashed areas and the names of the repositories in their shards, which
	 * start with the shards.
	 */
	private static final Map<String, Pattern> HASHED = Map.of("@hashed",
			Pattern.compile(SHA256 + "(\\.wiki|\\.design)?\\.git"), "@snippets", Pattern.compile(SHA256 + "\\.git"),
			"@groups", Pattern.compile(SHA256 + "\\.wiki\\.git"), "@pools", Pattern.compile(SHA256 + "\\.git"));

	/**
	 * Gitaly Cluster's area: its replicas are named by repository id, sharded by the id's
	 * hash.
	 */
	private static final String CLUSTER = "@cluster";

	private static final Set<String> CLUSTER_AREAS = Set.of("repositories", "pools");

	private static final Pattern CLUSTER_REPOSITORY = Pattern.compile("[0-9]+");

	private final RepositoryPaths paths;

	private final int maxDepth;

	/**
	 * @param paths the roots to walk, in order (a name in two roots is listed once, as
	 * the first wins)
	 * @param maxDepth how many directory levels below a root a plain tree is searched, at
	 * least 1
	 * @throws IllegalArgumentException if {@code maxDepth} is below 1
	 */
	public RepositoryDiscovery(RepositoryPaths paths, int maxDepth) {
		if (maxDepth < 1) {
			throw new IllegalArgumentException("maxDepth " + maxDepth + " must be at least 1");
		}
		this.paths = paths;
		this.maxDepth = maxDepth;
	}

	/** The depth bound of plain trees. */
	public int maxDepth() {
		return this.maxDepth;
	}

	/** Walks every root: the repositories found, and the directories skipped with why. */
	public DiscoveredRepositories discover() {
		Walk walk = new Walk();
		for (Path root : this.paths.roots()) {
			walk.root = root;
			walk.plain(root, 0);
		}
		return new DiscoveredRepositories(List.copyOf(walk.names), walk.skipped, walk.firstSkipped, this.maxDepth);
	}

	/**
	 * One discovery's state: the root being walked and what was found and skipped so far.
	 */
	private final class Walk {

		private Path root;

		private final TreeSet<String> names = new TreeSet<>();

		private final Map<SkipReason, Long> skipped = new EnumMap<>(SkipReason.class);

		private final Map<SkipReason, String> firstSkipped = new EnumMap<>(SkipReason.class);

		void plain(Path dir, int depth) {
			List<Path> entries = list(dir);
			if (entries == null) {
				return;
			}
			if (depth > 0 && isRepository(entries)) {
				found(dir);
				return;
			}
			for (Path child : directories(entries)) {
				String name = child.getFileName().toString();
				if (HASHED.containsKey(name)) {
					shards(child, HASHED.get(name), true);
				}
				else if (name.equals(CLUSTER)) {
					cluster(child);
				}
				else if (depth >= RepositoryDiscovery.this.maxDepth) {
					skip(SkipReason.TOO_DEEP, child);
				}
				else {
					plain(child, depth + 1);
				}
			}
		}

		private void cluster(Path dir) {
			for (Path area : directories(list(dir))) {
				if (CLUSTER_AREAS.contains(area.getFileName().toString())) {
					shards(area, CLUSTER_REPOSITORY, false);
				}
				else {
					skip(SkipReason.NOT_IN_LAYOUT, area);
				}
			}
		}

		/**
		 * {@code <area>/<2 hex>/<2 hex>/<repository>}; with {@code prefixed}, the name
		 * starts with the shards.
		 */
		private void shards(Path area, Pattern repository, boolean prefixed) {
			for (Path first : shardsOf(area)) {
				for (Path second : shardsOf(first)) {
					String shards = first.getFileName().toString() + second.getFileName();
					for (Path candidate : directories(list(second))) {
						String name = candidate.getFileName().toString();
						if (!repository.matcher(name).matches() || (prefixed && !name.startsWith(shards))) {
							skip(SkipReason.NOT_IN_LAYOUT, candidate);
						}
						else if (isBareRepository(candidate)) {
							found(candidate);
						}
						else {
							skip(SkipReason.NOT_A_REPOSITORY, candidate);
						}
					}
				}
			}
		}

		private List<Path> shardsOf(Path dir) {
			List<Path> shards = new ArrayList<>();
			for (Path child : directories(list(dir))) {
				if (SHARD.matcher(child.getFileName().toString()).matches()) {
					shards.add(child);
				}
				else {
					skip(SkipReason.NOT_IN_LAYOUT, child);
				}
			}
			return shards;
		}

		/**
		 * The entries of {@code dir} in name order, or {@code null} if it cannot be
		 * listed (counted).
		 */
		private List<Path> list(Path dir) {
			List<Path> entries = new ArrayList<>();
			try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
				stream.forEach(entries::add);
			}
			catch (NoSuchFileException | NotDirectoryException ex) {
				// removed or replaced since its parent was listed: nothing is there to
				// find
				return null;
			}
			catch (IOException | RuntimeException ex) {
				skip(SkipReason.UNREADABLE, dir);
				return null;
			}
			entries.sort(null);
			return entries;
		}

		/**
		 * The subdirectories among {@code entries} that are to be walked: hidden ones and
		 * symbolic links are counted instead. One {@code lstat} per entry.
		 */
		private List<Path> directories(List<Path> entries) {
			List<Path> directories = new ArrayList<>();
			if (entries == null) {
				return directories;
			}
			for (Path entry : entries) {
				BasicFileAttributes attributes;
				try {
					attributes = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
				}
				catch (NoSuchFileException ex) {
					continue;
				}
				catch (IOException ex) {
					skip(SkipReason.UNREADABLE, entry);
					continue;
				}
				if (attributes.isSymbolicLink()) {
					link(entry);
				}
				else if (attributes.isDirectory()) {
					if (entry.getFileName().toString().startsWith(".")) {
						skip(SkipReason.HIDDEN, entry);
					}
					else {
						directories.add(entry);
					}
				}
			}
			return directories;
		}

		/**
		 * Counts a symbolic link to a directory by where it leads; a link to a file is no
		 * directory.
		 */
		private void link(Path link) {
			Path target;
			try {
				target = link.toRealPath();
			}
			catch (IOException ex) {
				skip(SkipReason.LINK, link);
				return;
			}
			if (Files.isDirectory(target)) {
				skip(target.startsWith(this.root) ? SkipReason.LINK : SkipReason.LINK_OUT_OF_ROOT, link);
			}
		}

		/**
		 * A working tree ({@code .git}) or a bare repository ({@code HEAD} and
		 * {@code objects}), by the listing.
		 */
		private boolean isRepository(List<Path> entries) {
			boolean head = false;
			boolean objects = false;
			for (Path entry : entries) {
				String name = entry.getFileName().toString();
				if (name.equals(".git")) {
					return true;
				}
				head |= name.equals("HEAD");
				objects |= name.equals("objects");
			}
			return head && objects && isBareRepository(entries.get(0).getParent());
		}

		private boolean isBareRepository(Path dir) {
			return Files.isRegularFile(dir.resolve("HEAD"), LinkOption.NOFOLLOW_LINKS)
					&& Files.isDirectory(dir.resolve("objects"), LinkOption.NOFOLLOW_LINKS);
		}

		private void found(Path dir) {
			this.names.add(relative(dir));
		}

		private void skip(SkipReason reason, Path dir) {
			this.skipped.merge(reason, 1L, Long::sum);
			this.firstSkipped.putIfAbsent(reason, relative(dir));
		}

		private String relative(Path dir) {
			String name = this.root.relativize(dir).toString().replace('\\', '/');
			return name.isEmpty() ? "." : name;
		}

	}

}
