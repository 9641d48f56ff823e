package io.refstore.core.repo;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabases;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.PersonIdent;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.ref.ReflogPolicy;

/**
 * An opened git repository: where its directories are, its checked format, its
 * configuration, and (opened on first use) its object database. Opening reads the config
 * files once; the values returned here are a snapshot of that moment. Safe for use by
 * several threads.
 * <p>
 * Its refs are read and written through the store that
 * {@code io.refstore.core.store.RefStores.open} opens from it, in the format
 * {@link #refFormat()} names; this package knows no backend.
 */
public final class Repository implements Closeable {

	/**
	 * The timeout returned for a negative {@code core.filesRefLockTimeout} or
	 * {@code core.packedRefsTimeout} ("wait forever"): 100 years, small enough that
	 * {@link Duration#toNanos()} does not overflow.
	 */
	public static final Duration WAIT_FOREVER = Duration.ofDays(36_500);

	/**
	 * The environment variable that names a ref storage ({@code <format>} or
	 * {@code <format>://<path>}) over the repository's {@code extensions.refStorage}.
	 */
	public static final String REFERENCE_BACKEND = "GIT_REFERENCE_BACKEND";

	private final RepositoryLocator.Location location;

	private final Optional<Path> workTree;

	private final boolean bare;

	private final GitConfig config;

	private final RepositoryFormat format;

	private final RepositorySettings settings;

	private final Map<String, String> env;

	private final Clock clock;

	private ObjectDatabase objectDatabase;

	private boolean closed;

	/**
	 * The {@link StoreGate} generation read before the configuration was: stores opened
	 * here write at it.
	 */
	private final long generation;

	private Repository(RepositoryLocator.Location location, long generation, GitConfig config, RepositoryFormat format,
			Map<String, String> env, Clock clock) throws ConfigException {
		this.location = location;
		this.generation = generation;
		this.config = config;
		this.format = format;
		this.env = Map.copyOf(env);
		this.clock = clock;
		this.bare = isBare(location, config);
		this.workTree = this.bare ? Optional.empty() : Optional.ofNullable(findWorkTree(location, config));
		this.settings = RepositorySettings.of(config, this.bare);
	}

	/**
	 * Opens the repository at or above {@code start} with the process environment. See
	 * {@link #open(Path, Map)}.
	 */
	public static Repository open(Path start) throws IOException {
		return open(start, System.getenv());
	}

	/**
	 * Opens the repository at or above {@code start}, like {@code git -C start}: a
	 * working tree or any directory inside it, a {@code .git} directory, a bare
	 * repository, a linked worktree (its {@code .git} file reading {@code gitdir: ...}
	 * and the {@code commondir} file of its git directory are followed), unless
	 * {@code GIT_DIR} names the git directory; {@code GIT_CONFIG_PARAMETERS} and
	 * {@code GIT_CONFIG_COUNT} add config over the files'.
	 * @param start where to start looking
	 * @param env the environment to use instead of the process's: config file locations
	 * ({@code GIT_CONFIG_NOSYSTEM}, {@code GIT_CONFIG_GLOBAL}, {@code HOME}, ...), the
	 * committer ({@code GIT_COMMITTER_NAME}, {@code GIT_COMMITTER_EMAIL},
	 * {@code GIT_COMMITTER_DATE}) and {@code TZ}
	 * @return the repository, to be closed by the caller
	 * @throws NotARepositoryException if no repository is found, naming the path
	 * @throws UnsupportedRepositoryException if the repository's format version or an
	 * extension is not supported, naming the config key and value
	 * @throws ConfigException if a config file or a value this class reads is malformed
	 * @throws IOException if the files cannot be read
	 */
	public static Repository open(Path start, Map<String, String> env) throws IOException {
		return open(start, env, Clock.systemUTC());
	}

	static Repository open(Path start, Map<String, String> env, Clock clock) throws IOException {
		return open(locate(start, env), env, clock);
	}

	/**
	 * This repository opened again with the same environment, its configuration read
	 * anew: after a format migration or rollback switched the ref storage, which this
	 * object read once.
	 * @return the repository, to be closed by the caller (this one stays open)
	 */
	public Repository reopen() throws IOException {
		return open(this.location, this.env, this.clock);
	}

	private static Repository open(RepositoryLocator.Location location, Map<String, String> env, Clock clock)
			throws IOException {
		// before the configuration: a swap that ends after this read makes this
		// repository's stores stale
		long generation = StoreGate.of(location.commonDir()).generation();
		GitConfig own = ConfigFiles.repositoryLevel(location.commonDir());
		// like git, only the repository's own file declares its format
		RepositoryFormat format = RepositoryFormat.of(own);
		String backend = env.get(REFERENCE_BACKEND);
		if (backend != null) {
			// git 2.54: the environment's ref storage overrides the repository's
			RefFormat named = RepositoryFormat.refFormatOf(backend);
			if (named == null) {
				int separator = backend.indexOf(RepositoryFormat.URI_SEPARATOR);
				throw new UnsupportedRepositoryException(REFERENCE_BACKEND, backend, "unknown ref storage format: '"
						+ ((separator < 0) ? backend : backend.substring(0, separator)) + "'");
			}
			format = format.withRefStorage(named, RepositoryFormat.refStoragePathOf(backend));
		}
		GitConfig config = ConfigFiles.userLevels(env).with(own);
		if (format.worktreeConfig()) {
			config = config.with(ConfigFiles.worktreeLevel(location.gitDir()));
		}
		config = config.with(CommandLineConfig.of(env));
		return new Repository(location, generation, config, format, env, clock);
	}

	/**
	 * {@code GIT_DIR} names the git directory outright (no search, as git does), with
	 * {@code GIT_WORK_TREE} or else the working directory as its working tree; without it
	 * the repository is searched for from {@code start} up.
	 */
	private static RepositoryLocator.Location locate(Path start, Map<String, String> env) throws IOException {
		String gitDir = env.get("GIT_DIR");
		if (gitDir == null || gitDir.isEmpty()) {
			return RepositoryLocator.locate(start);
		}
		Path dir = start.resolve(gitDir).normalize();
		String workTree = env.get("GIT_WORK_TREE");
		RepositoryLocator.Location location = RepositoryLocator.asGitDir(dir,
				(workTree != null && !workTree.isEmpty()) ? start.resolve(workTree).normalize() : start);
		if (location == null) {
			throw new NotARepositoryException(dir, "not a git repository");
		}
		return location;
	}

	private static boolean isBare(RepositoryLocator.Location location, GitConfig config) throws ConfigException {
		if (!location.gitDir().equals(location.commonDir())) {
			// a linked worktree always has a working tree; git ignores the shared
			// core.bare there
			return false;
		}
		Optional<Boolean> bare = RepositorySettings.bool(config, "core", "bare");
		// without core.bare, git calls a repository bare unless it was reached through a
		// .git entry
		return bare.orElse(location.checkout() == null);
	}

	private static Path findWorkTree(RepositoryLocator.Location location, GitConfig config) throws ConfigException {
		Path gitDir = location.gitDir();
		Optional<String> configured = config.getString("core", null, "worktree");
		if (configured.isPresent() && gitDir.equals(location.commonDir())) {
			return gitDir.resolve(configured.get()).normalize();
		}
		if (location.checkout() != null) {
			return location.checkout();
		}
		if (gitDir.getFileName() != null && gitDir.getFileName().toString().equals(".git")) {
			return gitDir.getParent();
		}
		return gitDir.equals(location.commonDir()) ? null : linkedWorkTree(gitDir);
	}

	/**
	 * A linked worktree's git directory names the worktree's {@code .git} file in its
	 * {@code gitdir} file.
	 */
	private static Path linkedWorkTree(Path gitDir) {
		Path pointer = gitDir.resolve("gitdir");
		try {
			if (!Files.isRegularFile(pointer)) {
				return null;
			}
			Path dotGit = gitDir.resolve(Files.readString(pointer).strip()).normalize();
			return dotGit.getParent();
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * The git directory ({@code .git}, the bare repository, or
	 * {@code .git/worktrees/<name>}); a real path.
	 */
	public Path gitDir() {
		return this.location.gitDir();
	}

	/**
	 * The common directory, holding {@code objects/}, shared refs and {@code config}:
	 * equal to {@link #gitDir()} except in linked worktrees. A real path.
	 */
	public Path commonDir() {
		return this.location.commonDir();
	}

	/**
	 * Where the refs of this worktree are kept, as git's ref backends place them: the git
	 * directory, unless a ref storage URI ({@code extensions.refStorage} or
	 * {@code GIT_REFERENCE_BACKEND} of the form {@code <format>://<path>}) puts them
	 * elsewhere; then a linked worktree's own refs are under
	 * {@code <path>/worktrees/<name>}. The files of the ref store ({@code HEAD},
	 * {@code refs/}, {@code logs/}, or {@code reftable/}) are in this directory.
	 * @throws IOException if the URI's path does not resolve
	 */
	public Path refsDir() throws IOException {
		if (this.format.refStoragePath() == null) {
			return gitDir();
		}
		Path common = refsCommonDir();
		return gitDir().equals(commonDir()) ? common
				: common.resolve("worktrees").resolve(gitDir().getFileName().toString());
	}

	/**
	 * The path of the ref storage URI in use ({@code <format>://<path>}, from
	 * {@code GIT_REFERENCE_BACKEND} or else {@code extensions.refStorage}) as written
	 * there, or {@code null} if the refs are kept in the git directory.
	 */
	public String refStoragePath() {
		return this.format.refStoragePath();
	}

	/**
	 * Where the shared refs are kept: the common directory, or the real path of a ref
	 * storage URI's path (relative to the common directory).
	 * @throws IOException if the URI's path does not resolve
	 */
	public Path refsCommonDir() throws IOException {
		String path = this.format.refStoragePath();
		if (path == null) {
			return commonDir();
		}
		Path named = commonDir().resolve(path);
		try {
			return named.toRealPath();
		}
		catch (NoSuchFileException ex) {
			throw new UnsupportedRepositoryException("extensions.refstorage", path,
					"invalid path for the ref storage: '" + named + "' does not exist");
		}
	}

	/**
	 * The top of the working tree, or empty for a bare repository (or a git directory
	 * opened directly).
	 */
	public Optional<Path> workTree() {
		return this.workTree;
	}

	/**
	 * Whether the repository is bare: {@code core.bare}, or if unset, whether it was
	 * found without a {@code .git} entry. A linked worktree is never bare, even of a bare
	 * main repository.
	 */
	public boolean isBare() {
		return this.bare;
	}

	/**
	 * The configuration git would see: system, global, repository and (with
	 * {@code extensions.worktreeConfig}) worktree files, later ones winning.
	 * {@code include} and {@code includeIf} are not followed.
	 */
	public GitConfig config() {
		return this.config;
	}

	/** {@code core.repositoryformatversion}: 0 or 1. */
	public int formatVersion() {
		return this.format.version();
	}

	/** The object hash, from {@code extensions.objectFormat}. */
	public HashAlgorithm hashAlgorithm() {
		return this.format.hashAlgorithm();
	}

	/** The ref storage format, from {@code extensions.refStorage}. */
	public RefFormat refFormat() {
		return this.format.refFormat();
	}

	/**
	 * {@code core.logAllRefUpdates}: {@code always}, or a boolean; unset means
	 * {@link ReflogPolicy#NORMAL} in a repository with a working tree and
	 * {@link ReflogPolicy#EXISTING_ONLY} in a bare one.
	 */
	public ReflogPolicy reflogPolicy() {
		return this.settings.reflogPolicy();
	}

	/**
	 * How long to retry taking a loose ref's lock, from {@code core.filesRefLockTimeout}
	 * in milliseconds: 100 ms if unset, {@link Duration#ZERO} for "try once",
	 * {@link #WAIT_FOREVER} for a negative value.
	 */
	public Duration filesRefLockTimeout() {
		return this.settings.filesRefLockTimeout();
	}

	/**
	 * How long to retry taking the {@code packed-refs} lock, from
	 * {@code core.packedRefsTimeout} in milliseconds: 1000 ms if unset,
	 * {@link Duration#ZERO} for "try once", {@link #WAIT_FOREVER} for a negative value.
	 */
	public Duration packedRefsTimeout() {
		return this.settings.packedRefsTimeout();
	}

	/**
	 * A variable of the environment the repository was opened with (which may be another
	 * than the process's).
	 * @return empty if it is unset
	 */
	public Optional<String> environmentValue(String name) {
		return Optional.ofNullable(this.env.get(name));
	}

	/**
	 * A variable of the environment the repository was opened with (which may be another
	 * than the process's), such as git's {@code GIT_TEST_*} switches, read as a boolean
	 * as git reads one ({@code true}, {@code no}, {@code 0}, ...), or {@code fallback}
	 * when it is unset or no boolean.
	 */
	public boolean environmentFlag(String name, boolean fallback) {
		String value = this.env.get(name);
		if (value == null) {
			return fallback;
		}
		Boolean word = ConfigValues.booleanWord(value);
		if (word != null) {
			return word;
		}
		Long number = ConfigValues.parseSigned(value);
		return (number != null) ? number != 0 : fallback;
	}

	/**
	 * Who is updating refs, and when:
	 * {@code GIT_COMMITTER_NAME}/{@code GIT_COMMITTER_EMAIL} from the environment, else
	 * {@code user.name}/{@code user.email} (or {@code EMAIL}), else the operating system
	 * user and host name; the time is {@code GIT_COMMITTER_DATE} if set, else now in the
	 * zone of {@code TZ}.
	 * @return a new identity on each call (the time moves on)
	 * @throws IllegalArgumentException naming the variable and value if
	 * {@code GIT_COMMITTER_DATE} is not a date git would accept in one of the formats
	 * described in {@link GitDates}
	 */
	public PersonIdent committer() {
		return Identities.committer(this.config, this.env, this.clock);
	}

	/**
	 * The object database under {@code <commonDir>/objects}, opened on first use and
	 * closed by {@link #close()}.
	 * @throws IOException if it cannot be opened
	 * @throws IllegalStateException if this repository is closed
	 */
	public synchronized ObjectDatabase objectDatabase() throws IOException {
		if (this.closed) {
			throw new IllegalStateException("repository is closed: " + gitDir());
		}
		if (this.objectDatabase == null) {
			this.objectDatabase = ObjectDatabases.open(commonDir().resolve("objects"), hashAlgorithm());
		}
		return this.objectDatabase;
	}

	/**
	 * The {@link StoreGate} generation this repository's configuration was read at: a
	 * store opened from it writes only while no swap has happened since.
	 */
	public long storeGeneration() {
		return this.generation;
	}

	/** Closes the object database if it was opened. Idempotent. */
	@Override
	public synchronized void close() {
		this.closed = true;
		if (this.objectDatabase != null) {
			try {
				this.objectDatabase.close();
			}
			catch (IOException ex) {
				// nothing was written: a failed close of read handles loses no data
			}
			this.objectDatabase = null;
		}
	}

	@Override
	public String toString() {
		return "Repository[" + gitDir() + ", " + hashAlgorithm().configName() + ", "
				+ refFormat().configName().toLowerCase(Locale.ROOT) + "]";
	}

}
