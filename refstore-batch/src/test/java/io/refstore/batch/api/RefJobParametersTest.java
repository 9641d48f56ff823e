package io.refstore.batch.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.batch.JobFixtures;
import io.refstore.core.delete.ProtectedRefs;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.repo.Repository;
import io.refstore.core.testing.TempRepo;

/**
 * The typed job parameters: what a caller's text parses to (defaults filled in), that a
 * job reads back exactly what its launch wrote, that every refusal names its parameter,
 * whether it comes from text or from the record's own constructor, and what checking them
 * in a real repository resolves and refuses.
 */
class RefJobParametersTest {

	@Test
	void aCallersTextParsesWithDefaultsAndReadsBackAsWritten() {
		MigrateParameters migrate = (MigrateParameters) RefJobParameters.parse(RefJobType.MIGRATE,
				Map.of(JobParameterNames.TARGET_FORMAT, "reftable"));
		assertThat(migrate).isEqualTo(new MigrateParameters(RefFormat.REFTABLE, true, MigrateParameters.CHUNK, 0));
		assertThat(MigrateParameters.from(migrate.toMap())).isEqualTo(migrate);

		DeleteParameters plan = (DeleteParameters) RefJobParameters.parse(RefJobType.DELETE,
				Map.of(JobParameterNames.PREFIXES, " refs/heads/old/ , refs/tags/rc-", JobParameterNames.PLAN_ONLY,
						"true", JobParameterNames.OVERRIDE_PROTECTION, "true", JobParameterNames.OVERRIDE_REASON,
						"  the old releases go  "));
		assertThat(plan.prefixes()).containsExactly("refs/heads/old/", "refs/tags/rc-");
		assertThat(plan.overrideReason()).isEqualTo("the old releases go");
		assertThat(plan.chunkSize()).isEqualTo(DeleteParameters.CHUNK);
		assertThat(DeleteParameters.from(plan.toMap())).isEqualTo(plan);
		assertThat(plan.protection().entries()).isEqualTo(ProtectedRefs.defaults().entries());

		assertThat(RefJobParameters.parse(RefJobType.MAINTAIN, Map.of())).isEqualTo(new MaintainParameters(false));
		assertThat(MaintainParameters.from(new MaintainParameters(true).toMap()).force()).isTrue();
		assertThat(RefJobParameters.parse(RefJobType.VERIFY, Map.of()).toMap()).isEmpty();
	}

	/**
	 * A restore may name some refs of its manifest: they are read back as written, and
	 * one that is no full ref name is refused naming {@code names}.
	 */
	@Test
	void aRestoreOfSomeNamesReadsBackAsWrittenAndRefusesABadName() {
		RestoreParameters some = (RestoreParameters) RefJobParameters.parse(RefJobType.RESTORE,
				Map.of(JobParameterNames.MANIFEST, "launch-1", JobParameterNames.NAMES, "refs/heads/a, refs/heads/b"));
		assertThat(some.names()).containsExactly("refs/heads/a", "refs/heads/b");
		assertThat(RestoreParameters.from(some.toMap())).isEqualTo(some);
		assertThat(new RestoreParameters(Path.of("launch-1")).toMap()).doesNotContainKey(JobParameterNames.NAMES);
		assertRefused(RefJobType.RESTORE,
				Map.of(JobParameterNames.MANIFEST, "launch-1", JobParameterNames.NAMES, "refs/heads/a..b"),
				JobParameterNames.NAMES);
	}

	@Test
	void everyRefusalNamesItsParameter() {
		assertRefused(RefJobType.VERIFY, Map.of("colour", "red"), "colour");
		assertRefused(RefJobType.MIGRATE, Map.of(JobParameterNames.TARGET_FORMAT, "fancy"),
				JobParameterNames.TARGET_FORMAT);
		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.TARGET_FORMAT, "files", JobParameterNames.CHUNK_SIZE, "99999999999"),
				JobParameterNames.CHUNK_SIZE);
		assertRefused(RefJobType.MIGRATE,
				Map.of(JobParameterNames.TARGET_FORMAT, "files", JobParameterNames.REFLOGS, "yes"),
				JobParameterNames.REFLOGS);
		assertRefused(RefJobType.DELETE, Map.of(), "prefixes/globs/names/namespaces");
		assertRefused(RefJobType.DELETE, Map.of(JobParameterNames.GLOBS, "refs/heads/[oops"), JobParameterNames.GLOBS);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.PREFIXES, "refs/heads/", JobParameterNames.OVERRIDE_PROTECTION, "true"),
				JobParameterNames.OVERRIDE_REASON);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.PLAN, "x/plan", JobParameterNames.OVERRIDE_PROTECTION, "true"),
				JobParameterNames.OVERRIDE_PROTECTION);
		assertRefused(RefJobType.DELETE,
				Map.of(JobParameterNames.PREFIXES, "refs/heads/", JobParameterNames.PROTECTED_REFS, ""),
				JobParameterNames.PROTECTED_REFS);
		assertRefused(RefJobType.ROLLBACK, Map.of(), JobParameterNames.BACKUP);
		// typed values are held to the same ranges as text
		assertThatThrownBy(() -> MigrateParameters.of("reftable", null, 0, null)).isInstanceOfSatisfying(
				InvalidJobParameterException.class,
				(ex) -> assertThat(ex.parameter()).isEqualTo(JobParameterNames.CHUNK_SIZE));
		assertThatThrownBy(() -> DeleteParameters.plan(List.of("refs/heads/"), List.of(), List.of(), List.of(), false,
				"no override, no reason"))
			.isInstanceOfSatisfying(InvalidJobParameterException.class,
					(ex) -> assertThat(ex.parameter()).isEqualTo(JobParameterNames.OVERRIDE_REASON));
	}

	@Test
	void checkedInARepositoryPathsResolveInsideItAndTheFormatMustChange(@TempDir Path root) throws Exception {
		TempRepo git = JobFixtures.create(root, "checked", RefFormat.FILES, 2);
		Path plans = git.gitDir().resolve(JobResults.PLANS_DIR);
		Files.createDirectories(plans.resolve("launch-1"));
		// a plan as refstore wrote it before plans named their repository: taken where it
		// lies
		Files.writeString(plans.resolve("launch-1/plan"), "refstore-deletion-plan 2\nend 0\n");
		try (Repository repository = Repository.open(git.gitDir())) {
			DeleteParameters executed = DeleteParameters.execute(Path.of("launch-1/plan"))
				.checkedIn(repository, ProtectedRefs.defaults());
			assertThat(executed.plan()).isEqualTo(plans.resolve("launch-1/plan"));
			assertThat(executed.toMap()).doesNotContainKeys(JobParameterNames.PROTECTED_REFS,
					JobParameterNames.PREFIXES);
			assertThatThrownBy(() -> DeleteParameters.execute(Path.of("../../config"))
				.checkedIn(repository, ProtectedRefs.defaults()))
				.isInstanceOfSatisfying(InvalidJobParameterException.class,
						(ex) -> assertThat(ex.parameter()).isEqualTo(JobParameterNames.PLAN));
			DeleteParameters planned = DeleteParameters
				.plan(List.of("refs/heads/"), List.of(), List.of(), List.of(), true, "clean slate")
				.checkedIn(repository, ProtectedRefs.defaults());
			assertThat(planned.protectedRefs()).isEmpty();
			assertThat(planned.toMap()).containsEntry(JobParameterNames.PROTECTED_REFS, "");
			assertThatThrownBy(() -> MigrateParameters.of("files", null, null, null)
				.checkedIn(repository, ProtectedRefs.defaults()))
				.isInstanceOfSatisfying(InvalidJobParameterException.class,
						(ex) -> assertThat(ex.reason()).contains("already uses that format"));
			assertThatThrownBy(() -> new RestoreParameters(Path.of("no-such-launch")).checkedIn(repository,
					ProtectedRefs.defaults()))
				.isInstanceOfSatisfying(InvalidJobParameterException.class,
						(ex) -> assertThat(ex.parameter()).isEqualTo(JobParameterNames.MANIFEST));
		}
	}

	private static void assertRefused(RefJobType type, Map<String, String> given, String parameter) {
		assertThatThrownBy(() -> RefJobParameters.parse(type, new LinkedHashMap<>(given))).isInstanceOfSatisfying(
				InvalidJobParameterException.class, (ex) -> assertThat(ex.parameter()).isEqualTo(parameter));
	}

}
