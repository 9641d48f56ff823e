package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.refstore.batch.api.InvalidJobParameterException;
import io.refstore.batch.api.JobParameterNames;
import io.refstore.batch.api.RefJobParameters;
import io.refstore.batch.api.RefJobType;

/**
 * The schedule form's typed fields against the batch module's parsing: the ranges the
 * form words are those a launch takes, every refused field is named at once, and the
 * words are for people.
 */
class ScheduleParametersTest {

	@Test
	void theRangesTheFormWordsAreThoseALaunchTakes() {
		for (RefJobType type : RefJobType.schedulableTypes()) {
			for (ScheduleParameters.Field field : ScheduleParameters.fields(type)) {
				if (field.kind() != ScheduleParameters.Kind.NUMBER) {
					continue;
				}
				assertThatCode(() -> RefJobParameters.parse(type, given(type, field.key(), field.min())))
					.as(type + " " + field.key() + " " + field.min())
					.doesNotThrowAnyException();
				assertThatCode(() -> RefJobParameters.parse(type, given(type, field.key(), field.max())))
					.as(type + " " + field.key() + " " + field.max())
					.doesNotThrowAnyException();
				assertThatThrownBy(() -> RefJobParameters.parse(type, given(type, field.key(), field.min() - 1)))
					.isInstanceOf(InvalidJobParameterException.class);
				assertThatThrownBy(() -> RefJobParameters.parse(type, given(type, field.key(), field.max() + 1)))
					.isInstanceOf(InvalidJobParameterException.class);
			}
			// every key a schedule may give the job has its field
			assertThat(ScheduleParameters.keys(type)).as(type.name()).containsAll(keysWithoutOverride(type));
		}
	}

	@Test
	void everyRefusedFieldIsNamedAtOnceInWords() {
		Map<String, String> given = new LinkedHashMap<>();
		given.put(JobParameterNames.PREFIXES, "refs/pull/");
		given.put(JobParameterNames.CHUNK_SIZE, "100001");
		given.put(JobParameterNames.THROTTLE_MILLIS, "-1");
		given.put(JobParameterNames.NOT_UPDATED_SINCE, "later");
		given.put(JobParameterNames.PLAN_ONLY, "maybe");
		assertThat(ScheduleParameters.check(RefJobType.DELETE, given)).extracting(ScheduleParameters.Problem::message)
			.containsExactly(
					"'Plan only (dry run): count what would go and keep a manifest, delete nothing' must be"
							+ " on or off (true or false)",
					"Not updated since: give an age such as 90d, 12w, 6m or 1y, a day such as 2026-01-31, or a time"
							+ " such as 2026-01-31T12:00:00Z",
					"Refs per chunk must be a whole number from 1 to 100,000",
					"Pause between chunks must be a whole number from 0 to 60,000 milliseconds");
		assertThat(ScheduleParameters.check(RefJobType.VERIFY, Map.of("colour", "red")))
			.extracting(ScheduleParameters.Problem::message)
			.containsExactly("'colour' is not a parameter of verifyRefsJob, which takes none");
		// alone right, together refused: a deletion that selects nothing
		assertThat(ScheduleParameters.check(RefJobType.DELETE, Map.of(JobParameterNames.CHUNK_SIZE, "10")))
			.singleElement()
			.satisfies((problem) -> assertThat(problem.message()).doesNotContain("Exception"));
		assertThat(ScheduleParameters.check(RefJobType.MIGRATE,
				Map.of(JobParameterNames.TARGET_FORMAT, "reftable", JobParameterNames.CHUNK_SIZE, "2000000")))
			.extracting(ScheduleParameters.Problem::key)
			.containsExactly(JobParameterNames.CHUNK_SIZE);
	}

	private static Map<String, String> given(RefJobType type, String key, long value) {
		Map<String, String> given = new LinkedHashMap<>();
		if (type == RefJobType.MIGRATE) {
			given.put(JobParameterNames.TARGET_FORMAT, "reftable");
		}
		if (type == RefJobType.DELETE) {
			given.put(JobParameterNames.PREFIXES, "refs/pull/");
		}
		given.put(key, Long.toString(value));
		return given;
	}

	/** What a schedule may give a job of {@code type}: all but a protection override. */
	private static java.util.Set<String> keysWithoutOverride(RefJobType type) {
		java.util.Set<String> keys = new java.util.HashSet<>();
		for (String key : new String[] { JobParameterNames.TARGET_FORMAT, JobParameterNames.REFLOGS,
				JobParameterNames.CHUNK_SIZE, JobParameterNames.THROTTLE_MILLIS, JobParameterNames.BACKUP,
				JobParameterNames.PREFIXES, JobParameterNames.GLOBS, JobParameterNames.NAMES,
				JobParameterNames.EXCLUDES, JobParameterNames.NAMESPACES, JobParameterNames.MERGED_INTO,
				JobParameterNames.OLDER_THAN, JobParameterNames.NOT_UPDATED_SINCE, JobParameterNames.PLAN_ONLY,
				JobParameterNames.PLAN, JobParameterNames.MANIFEST, JobParameterNames.FORCE }) {
			try {
				RefJobParameters.parse(type, Map.of(key, "x"));
				keys.add(key);
			}
			catch (InvalidJobParameterException ex) {
				if (!ex.reason().startsWith("not a parameter of")) {
					keys.add(key);
				}
			}
		}
		return keys;
	}

}
