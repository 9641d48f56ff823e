package io.refstore.core.repo;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefFormat;

/**
 * What {@code core.repositoryformatversion} and the {@code extensions.*} keys of a
 * repository's own config file declare, checked the way git checks them before it touches
 * a repository.
 *
 * @param version 0 or 1
 * @param hashAlgorithm from {@code extensions.objectFormat}, SHA-1 by default
 * @param refFormat from {@code extensions.refStorage}, files by default
 * @param refStoragePath the path of a ref storage URI ({@code <format>://<path>},
 * {@code extensions.refStorage} since git 2.54): where the refs are kept instead of the
 * git directory; {@code null} when they are in the git directory
 * @param worktreeConfig whether {@code extensions.worktreeConfig} enables
 * {@code config.worktree}
 */
record RepositoryFormat(int version, HashAlgorithm hashAlgorithm, RefFormat refFormat, String refStoragePath,
		boolean worktreeConfig) {

	/** What separates the format from the path in a ref storage URI. */
	static final String URI_SEPARATOR = "://";

	/** Extensions git honours in version 0 repositories too. */
	private static final Set<String> V0_EXTENSIONS = Set.of("noop", "preciousobjects", "partialclone",
			"worktreeconfig");

	/** Extensions that need version 1. */
	private static final Set<String> V1_EXTENSIONS = Set.of("noop-v1", "objectformat", "refstorage",
			"compatobjectformat");

	/**
	 * Reads and checks the format.
	 * @param config the repository's own config file ({@code $GIT_COMMON_DIR/config})
	 * @throws UnsupportedRepositoryException for a version other than 0 or 1, an unknown
	 * extension in a version 1 repository, a version 1 extension in a version 0
	 * repository, or an unknown extension value
	 * @throws ConfigException for a value that is not a number or boolean where one is
	 * required
	 */
	static RepositoryFormat of(GitConfig config) throws UnsupportedRepositoryException, ConfigException {
		int version = version(config);
		List<String> v1Only = new ArrayList<>();
		List<String> unknown = new ArrayList<>();
		for (GitConfig.Entry entry : config.section("extensions")) {
			if (entry.subsection() != null || V0_EXTENSIONS.contains(entry.key())) {
				continue;
			}
			(V1_EXTENSIONS.contains(entry.key()) ? v1Only : unknown).add(entry.key());
		}
		// git checks each extension's value as it reads the file, before the version
		HashAlgorithm hash = hashAlgorithm(config);
		GitConfig.Entry storage = config.last("extensions", null, "refstorage").orElse(null);
		String uri = (storage != null) ? storage.value() : null;
		RefFormat refFormat = (storage != null) ? refFormatOf(uri) : RefFormat.FILES;
		if (refFormat == null) {
			throw invalidValue(storage, "files or reftable");
		}
		if (version == 0 && !v1Only.isEmpty()) {
			throw new UnsupportedRepositoryException("extensions." + v1Only.get(0), lastValue(config, v1Only.get(0)),
					"repo version is 0, but v1-only extension" + ((v1Only.size() > 1) ? "s" : "") + " found: "
							+ String.join(", ", v1Only));
		}
		if (version == 1 && !unknown.isEmpty()) {
			throw new UnsupportedRepositoryException("extensions." + unknown.get(0), lastValue(config, unknown.get(0)),
					"unknown repository extension" + ((unknown.size() > 1) ? "s" : "") + " found: "
							+ String.join(", ", unknown));
		}
		return new RepositoryFormat(version, hash, refFormat, refStoragePathOf(uri), worktreeConfig(config));
	}

	/**
	 * The format a ref storage value names ({@code reftable}, or
	 * {@code reftable://<path>} as git 2.54 reads it); {@code null} for none.
	 */
	static RefFormat refFormatOf(String value) {
		if (value == null) {
			return null;
		}
		int separator = value.indexOf(URI_SEPARATOR);
		String name = (separator < 0) ? value : value.substring(0, separator);
		for (RefFormat format : RefFormat.values()) {
			if (format.configName().equals(name)) {
				return format;
			}
		}
		return null;
	}

	/** The path of a ref storage URI, {@code null} for a bare format name. */
	static String refStoragePathOf(String value) {
		int separator = (value != null) ? value.indexOf(URI_SEPARATOR) : -1;
		return (separator < 0) ? null : value.substring(separator + URI_SEPARATOR.length());
	}

	/** This format with the ref storage {@code GIT_REFERENCE_BACKEND} names instead. */
	RepositoryFormat withRefStorage(RefFormat format, String path) {
		return new RepositoryFormat(this.version, this.hashAlgorithm, format, path, this.worktreeConfig);
	}

	private static int version(GitConfig config) throws UnsupportedRepositoryException, ConfigException {
		GitConfig.Entry entry = config.last("core", null, "repositoryformatversion").orElse(null);
		if (entry == null) {
			return 0;
		}
		long version;
		try {
			version = ConfigValues.toLong(entry);
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(entry.source(), entry.line(), ex.getMessage());
		}
		if (version != 0 && version != 1) {
			throw new UnsupportedRepositoryException("core.repositoryformatversion", entry.value(),
					"Expected git repo version <= 1, found " + entry.value() + " (core.repositoryformatversion in "
							+ entry.where() + ")");
		}
		return (int) version;
	}

	private static HashAlgorithm hashAlgorithm(GitConfig config) throws UnsupportedRepositoryException {
		GitConfig.Entry entry = config.last("extensions", null, "objectformat").orElse(null);
		if (entry == null) {
			return HashAlgorithm.SHA1;
		}
		for (HashAlgorithm algorithm : HashAlgorithm.values()) {
			if (algorithm.configName().equals(entry.value())) {
				return algorithm;
			}
		}
		throw invalidValue(entry, "sha1 or sha256");
	}

	private static boolean worktreeConfig(GitConfig config) throws ConfigException {
		GitConfig.Entry entry = config.last("extensions", null, "worktreeconfig").orElse(null);
		try {
			return entry != null && ConfigValues.toBoolean(entry);
		}
		catch (IllegalArgumentException ex) {
			throw new ConfigException(entry.source(), entry.line(), ex.getMessage());
		}
	}

	private static UnsupportedRepositoryException invalidValue(GitConfig.Entry entry, String expected) {
		String shown = (entry.value() != null) ? "'" + entry.value() + "'" : "(no value)";
		return new UnsupportedRepositoryException(entry.name(), entry.value(), "invalid value for '" + entry.name()
				+ "': " + shown + ", expected " + expected + " (" + entry.where() + ")");
	}

	private static String lastValue(GitConfig config, String extension) {
		return config.last("extensions", null, extension).map(GitConfig.Entry::value).orElse(null);
	}

}
