package io.refstore.batch.support;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.repo.InvalidRepositoryNameException;
import io.refstore.core.repo.Repository;
import io.refstore.core.repo.RepositoryPaths;

/**
 * Checks a launch before anything starts: the repository resolved under the configured
 * roots and opened, and the job's typed parameters ({@link RefJobParameters}, which check
 * their own text) checked in it. Every refusal is an {@link InvalidJobParameterException}
 * naming the parameter. Immutable and thread-safe.
 */
final class JobParameterValidator {

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
	 * A launch checked: the repository as given, its real path, and the parameters
	 * checked in it.
	 */
	record Checked(String repository, Path path, RefJobParameters parameters) {
	}

	/** Checks {@code parameters} for a launch on the repository named {@code name}. */
	Checked validate(String name, RefJobParameters parameters) throws IOException {
		Path dir = resolve(name);
		try (Repository repository = open(name, dir)) {
			return new Checked(name, dir, parameters.checkedIn(repository, this.protection));
		}
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

}
