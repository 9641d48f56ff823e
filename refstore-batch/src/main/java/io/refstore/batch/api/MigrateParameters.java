package io.refstore.batch.api;

import java.util.Map;
import java.util.Set;

import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;

/**
 * {@code migrateRefsJob}'s parameters.
 *
 * @param targetFormat the format to migrate to
 * @param reflogs carry reflogs over (default {@code true})
 * @param chunkSize refs per chunk of the copy, 1 to 1,000,000 (default {@value #CHUNK})
 * @param throttleMillis pause between chunks, 0 to 60,000 ms (default 0), to spare a busy
 * server
 */
public record MigrateParameters(RefFormat targetFormat, boolean reflogs, int chunkSize,
		long throttleMillis) implements RefJobParameters {

	/**
	 * Refs per chunk unless given: a chunk is one transaction of the job repository (2 to
	 * 3 ms on H2) and a restart repeats at most one, while copying 100,000 refs takes
	 * about 20 ms. At 10,000 refs a chunk, committing cost a million-ref migration more
	 * than copying did.
	 */
	public static final int CHUNK = 100_000;

	static final Set<String> KEYS = Set.of(JobParameterNames.TARGET_FORMAT, JobParameterNames.REFLOGS,
			JobParameterNames.CHUNK_SIZE, JobParameterNames.THROTTLE_MILLIS);

	/**
	 * @throws InvalidJobParameterException naming the parameter out of range
	 */
	public MigrateParameters {
		if (targetFormat == null) {
			throw new InvalidJobParameterException(JobParameterNames.TARGET_FORMAT, null,
					"the format must be 'files' or 'reftable'");
		}
		ParameterText.range(JobParameterNames.CHUNK_SIZE, chunkSize, 1, 1_000_000);
		ParameterText.range(JobParameterNames.THROTTLE_MILLIS, throttleMillis, 0, 60_000);
	}

	/**
	 * The parameters a caller gives, defaults for those it leaves {@code null}.
	 * @param targetFormat {@code files} or {@code reftable}
	 */
	public static MigrateParameters of(String targetFormat, Boolean reflogs, Integer chunkSize,
			Integer throttleMillis) {
		return new MigrateParameters(targetFormat(targetFormat), (reflogs == null) || reflogs,
				(chunkSize == null) ? CHUNK : chunkSize, (throttleMillis == null) ? 0 : throttleMillis);
	}

	/** The format {@code text} names. */
	static RefFormat targetFormat(String text) {
		try {
			return RefFormat.fromConfigName(text);
		}
		catch (RuntimeException ex) {
			throw new InvalidJobParameterException(JobParameterNames.TARGET_FORMAT, text,
					"the format must be 'files' or 'reftable'");
		}
	}

	/** The parameters of a job's parameters. */
	public static MigrateParameters from(Map<String, ?> jobParameters) {
		return read(new ParameterText(jobParameters));
	}

	static MigrateParameters read(ParameterText text) {
		RefFormat format = targetFormat(text.text(JobParameterNames.TARGET_FORMAT));
		boolean reflogs = text.bool(JobParameterNames.REFLOGS, true);
		long chunkSize = ParameterText.range(JobParameterNames.CHUNK_SIZE,
				text.number(JobParameterNames.CHUNK_SIZE, CHUNK), 1, 1_000_000);
		return new MigrateParameters(format, reflogs, (int) chunkSize,
				text.number(JobParameterNames.THROTTLE_MILLIS, 0));
	}

	@Override
	public MigrateParameters checkedIn(Repository repository, ProtectedRefs protection) {
		if (this.targetFormat == repository.refFormat()) {
			throw new InvalidJobParameterException(JobParameterNames.TARGET_FORMAT, this.targetFormat.configName(),
					"the repository already uses that format");
		}
		return this;
	}

	@Override
	public RefJobType type() {
		return RefJobType.MIGRATE;
	}

	@Override
	public Map<String, String> toMap() {
		Map<String, String> map = RefJobParameters.map();
		map.put(JobParameterNames.TARGET_FORMAT, this.targetFormat.configName());
		map.put(JobParameterNames.REFLOGS, Boolean.toString(this.reflogs));
		map.put(JobParameterNames.CHUNK_SIZE, Integer.toString(this.chunkSize));
		map.put(JobParameterNames.THROTTLE_MILLIS, Long.toString(this.throttleMillis));
		return map;
	}

}
