package io.refstore.batch.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.InvalidSelectionException;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.delete.RefSelection;
import io.refstore.core.migrate.FormatMigrator;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;

/**
 * Checks a launch's parameters before anything starts, and turns them into the values the jobs read: the
 * repository resolved under the configured roots, formats, selections, sizes and paths parsed. Every refusal
 * is an {@link InvalidJobParameterException} naming the parameter. Immutable and thread-safe.
 */
final class JobParameterValidator {

	/**
	 * Refs per chunk of a migration unless given: a chunk is one transaction of the job repository (2 to 3 ms
	 * on H2) and a restart repeats at most one, while copying 100,000 refs takes about 20 ms. At 10,000 refs a
	 * chunk, committing cost a million-ref migration more than copying did.
	 */
	static final int MIGRATION_CHUNK = 100_000;

	/** The longest reason for overriding protection: it is stored as a job parameter (at most 2500 characters). */
	static final int MAX_REASON = 1000;

	private static final Map<RefJobType, Set<String>> ALLOWED = Map.of(
			RefJobType.MIGRATE, Set.of(JobParameterNames.TARGET_FORMAT, JobParameterNames.REFLOGS,
					JobParameterNames.CHUNK_SIZE, JobParameterNames.THROTTLE_MILLIS),
			RefJobType.ROLLBACK, Set.of(JobParameterNames.BACKUP),
			RefJobType.DELETE, Set.of(JobParameterNames.PREFIXES, JobParameterNames.GLOBS, JobParameterNames.NAMES,
					JobParameterNames.EXCLUDES, JobParameterNames.PLAN_ONLY, JobParameterNames.PLAN,
					JobParameterNames.CHUNK_SIZE, JobParameterNames.THROTTLE_MILLIS,
					JobParameterNames.OVERRIDE_PROTECTION, JobParameterNames.OVERRIDE_REASON),
			RefJobType.RESTORE, Set.of(JobParameterNames.MANIFEST),
			RefJobType.MAINTAIN, Set.of(JobParameterNames.FORCE),
			RefJobType.VERIFY, Set.of());

	private final RepositoryPaths paths;

	private final ProtectedRefs protection;

	/**
	 * @param protection what a deletion plan keeps unless its launch overrides it
	 */
	JobParameterValidator(RepositoryPaths paths, ProtectedRefs protection) {
		this.paths = paths;
		this.protection = protection;
	}

	/**
	 * Checks {@code given} for a job of {@code type}.
	 * @return the parameters the job gets, as text, with {@link JobParameterNames#REPOSITORY_PATH} added
	 */
	Map<String, String> validate(RefJobType type, Map<String, String> given) throws IOException {
		Map<String, String> out = new LinkedHashMap<>();
		for (String key : given.keySet()) {
			if (!key.equals(JobParameterNames.REPOSITORY) && !ALLOWED.get(type).contains(key)) {
				throw new InvalidJobParameterException(key, given.get(key),
						"not a parameter of " + type.jobName() + " (it takes repository and " + ALLOWED.get(type) + ")");
			}
		}
		String name = given.get(JobParameterNames.REPOSITORY);
		Path dir = resolve(name);
		out.put(JobParameterNames.REPOSITORY, name);
		out.put(JobParameterNames.REPOSITORY_PATH, dir.toString());
		try (Repository repository = open(name, dir)) {
			switch (type) {
				case MIGRATE -> migration(given, repository, out);
				case ROLLBACK -> out.put(JobParameterNames.BACKUP, within(given, JobParameterNames.BACKUP,
						repository.gitDir().resolve(FormatMigrator.BACKUP_DIR), true).toString());
				case DELETE -> deletion(given, repository, out);
				case RESTORE -> out.put(JobParameterNames.MANIFEST, within(given, JobParameterNames.MANIFEST,
						repository.gitDir().resolve(JobResults.PLANS_DIR), false).toString());
				case MAINTAIN -> out.put(JobParameterNames.FORCE, bool(given, JobParameterNames.FORCE, false));
				case VERIFY -> {
				}
			}
		}
		return out;
	}

	/** The real path of repository {@code name}. */
	Path resolve(String name) throws IOException {
		if (name == null) {
			throw new InvalidJobParameterException(JobParameterNames.REPOSITORY, null, "it is required");
		}
		try {
			return this.paths.resolve(JobParameterNames.REPOSITORY, name)
				.orElseThrow(() -> new InvalidJobParameterException(JobParameterNames.REPOSITORY, name,
						"no such repository under " + this.paths.roots()));
		}
		catch (InvalidRepositoryNameException ex) {
			throw new InvalidJobParameterException(JobParameterNames.REPOSITORY, name, ex.reason());
		}
	}

	private static Repository open(String name, Path dir) {
		try {
			return Repository.open(dir);
		}
		catch (IOException ex) {
			throw new InvalidJobParameterException(JobParameterNames.REPOSITORY, name,
					"not a git repository we can use: " + ex.getMessage());
		}
	}

	private static void migration(Map<String, String> given, Repository repository, Map<String, String> out) {
		String target = given.get(JobParameterNames.TARGET_FORMAT);
		RefFormat format;
		try {
			format = RefFormat.fromConfigName(target);
		}
		catch (RuntimeException ex) {
			throw new InvalidJobParameterException(JobParameterNames.TARGET_FORMAT, target,
					"the format must be 'files' or 'reftable'");
		}
		if (format == repository.refFormat()) {
			throw new InvalidJobParameterException(JobParameterNames.TARGET_FORMAT, target,
					"the repository already uses that format");
		}
		out.put(JobParameterNames.TARGET_FORMAT, format.configName());
		out.put(JobParameterNames.REFLOGS, bool(given, JobParameterNames.REFLOGS, true));
		out.put(JobParameterNames.CHUNK_SIZE, number(given, JobParameterNames.CHUNK_SIZE, MIGRATION_CHUNK, 1, 1_000_000));
		out.put(JobParameterNames.THROTTLE_MILLIS, number(given, JobParameterNames.THROTTLE_MILLIS, 0, 0, 60_000));
	}

	private void deletion(Map<String, String> given, Repository repository, Map<String, String> out)
			throws IOException {
		String plan = given.get(JobParameterNames.PLAN);
		if (plan != null) {
			out.put(JobParameterNames.PLAN, within(given, JobParameterNames.PLAN,
					repository.gitDir().resolve(JobResults.PLANS_DIR), false).toString());
			if (given.containsKey(JobParameterNames.OVERRIDE_PROTECTION)
					|| given.containsKey(JobParameterNames.OVERRIDE_REASON)) {
				throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_PROTECTION,
						given.get(JobParameterNames.OVERRIDE_PROTECTION),
						"the plan decides what is protected: override the protection when planning");
			}
		}
		else {
			selection(given);
			for (String key : new String[] { JobParameterNames.PREFIXES, JobParameterNames.GLOBS,
					JobParameterNames.NAMES, JobParameterNames.EXCLUDES }) {
				if (given.get(key) != null) {
					out.put(key, given.get(key));
				}
			}
			protection(given, out);
		}
		out.put(JobParameterNames.PLAN_ONLY, bool(given, JobParameterNames.PLAN_ONLY, false));
		out.put(JobParameterNames.CHUNK_SIZE, number(given, JobParameterNames.CHUNK_SIZE, 1000, 1, 100_000));
		out.put(JobParameterNames.THROTTLE_MILLIS, number(given, JobParameterNames.THROTTLE_MILLIS, 0, 0, 60_000));
	}

	/**
	 * What the plan keeps: the configured protection, or nothing when {@code overrideProtection} is
	 * {@code true}, which needs a non-blank {@code overrideReason} (a reason without an override is refused too).
	 * Who may override is the caller's rule; the reason stays with the launch's parameters for the audit log.
	 */
	private void protection(Map<String, String> given, Map<String, String> out) {
		boolean override = Boolean.parseBoolean(bool(given, JobParameterNames.OVERRIDE_PROTECTION, false));
		String reason = given.get(JobParameterNames.OVERRIDE_REASON);
		if (override && (reason == null || reason.isBlank())) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason,
					"it is required when overrideProtection is true: say why the protected refs may be deleted");
		}
		if (override && reason.strip().length() > MAX_REASON) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason.substring(0, 40) + "...",
					"it must be at most " + MAX_REASON + " characters");
		}
		if (!override && reason != null) {
			throw new InvalidJobParameterException(JobParameterNames.OVERRIDE_REASON, reason,
					"it is only taken with overrideProtection true");
		}
		out.put(JobParameterNames.OVERRIDE_PROTECTION, Boolean.toString(override));
		if (override) {
			out.put(JobParameterNames.OVERRIDE_REASON, reason.strip());
		}
		out.put(JobParameterNames.PROTECTED_REFS,
				override ? "" : String.join(",", this.protection.entries()));
	}

	/**
	 * The selection the deletion parameters describe.
	 * @throws InvalidJobParameterException naming the parameter of a bad part
	 */
	static RefSelection selection(Map<String, String> parameters) {
		RefSelection.Builder builder = RefSelection.builder();
		String current = JobParameterNames.PREFIXES;
		try {
			for (String prefix : list(parameters.get(JobParameterNames.PREFIXES))) {
				builder.prefix(prefix);
			}
			current = JobParameterNames.GLOBS;
			for (String glob : list(parameters.get(JobParameterNames.GLOBS))) {
				builder.glob(glob);
			}
			current = JobParameterNames.NAMES;
			for (String name : list(parameters.get(JobParameterNames.NAMES))) {
				builder.name(name);
			}
			current = JobParameterNames.EXCLUDES;
			for (String exclude : list(parameters.get(JobParameterNames.EXCLUDES))) {
				builder.exclude(exclude);
			}
			current = JobParameterNames.PREFIXES + "/" + JobParameterNames.GLOBS + "/" + JobParameterNames.NAMES;
			return builder.build();
		}
		catch (InvalidSelectionException ex) {
			InvalidJobParameterException refused = new InvalidJobParameterException(current, ex.value(), ex.problem());
			// a bad name's rule stays at hand as the cause (the API names it, as for a ref write)
			refused.initCause(ex.getCause());
			throw refused;
		}
	}

	private static java.util.List<String> list(String value) {
		return JobParameterNames.list(value);
	}

	private static Path within(Map<String, String> given, String key, Path base, boolean directory) {
		String value = given.get(key);
		if (value == null) {
			throw new InvalidJobParameterException(key, null, "it is required");
		}
		Path path = base.resolve(value).normalize();
		if (!path.startsWith(base.normalize()) || path.equals(base.normalize())) {
			throw new InvalidJobParameterException(key, value, "it must lie inside " + base);
		}
		if (directory ? !Files.isDirectory(path) : !Files.exists(path)) {
			throw new InvalidJobParameterException(key, value, "'" + path + "' does not exist");
		}
		return path;
	}

	private static String bool(Map<String, String> given, String key, boolean fallback) {
		String value = given.get(key);
		if (value == null) {
			return Boolean.toString(fallback);
		}
		if (!value.equals("true") && !value.equals("false")) {
			throw new InvalidJobParameterException(key, value, "it must be 'true' or 'false'");
		}
		return value;
	}

	private static String number(Map<String, String> given, String key, long fallback, long min, long max) {
		String value = given.get(key);
		if (value == null) {
			return Long.toString(fallback);
		}
		long number;
		try {
			number = Long.parseLong(value);
		}
		catch (NumberFormatException ex) {
			throw new InvalidJobParameterException(key, value, "it must be a whole number");
		}
		if (number < min || number > max) {
			throw new InvalidJobParameterException(key, value, "it must be from " + min + " to " + max);
		}
		return Long.toString(number);
	}

}
