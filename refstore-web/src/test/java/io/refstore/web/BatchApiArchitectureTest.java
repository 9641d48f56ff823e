package io.refstore.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobExecution;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.batch.support.JobLocks;
import io.refstore.batch.support.RefJobType;
import io.refstore.core.repo.Repository;

/**
 * The web layer drives jobs only through the batch module's API: the job names and types,
 * the typed parameter records, the keys of parameters and results, the launcher-facing
 * services and what they throw. Anything else in {@code io.refstore.batch} (job
 * configurations, tasklets, the validator, locks, listeners, properties) is the module's
 * own and may change without the web layer noticing. Checked on the compiled main
 * classes, with ArchUnit, which sees every type the bytecode refers to.
 */
class BatchApiArchitectureTest {

	/**
	 * The batch module's API, by class (nested classes included). Repository roots and
	 * names are core's ({@code core.repo}), not batch's.
	 */
	static final Set<String> API = Set.of("io.refstore.batch.RefBatchConfiguration",
			"io.refstore.batch.support.RefJobs", "io.refstore.batch.support.RefJobType",
			"io.refstore.batch.support.JobSummary", "io.refstore.batch.support.JobFilter",
			"io.refstore.batch.support.RefJobEvent", "io.refstore.batch.support.JobParameterNames",
			"io.refstore.batch.support.JobResults", "io.refstore.batch.support.JobConflictException",
			"io.refstore.batch.support.JobStateException", "io.refstore.batch.support.InvalidJobParameterException",
			"io.refstore.batch.support.JobLeases", "io.refstore.batch.support.StartupRecovery",
			"io.refstore.batch.inventory.InventoryRecorder", "io.refstore.batch.inventory.RefInventory");

	/** The package of the typed job parameter records, all of it API. */
	static final String PARAMETERS_PACKAGE = "io.refstore.batch.parameters";

	private static final DescribedPredicate<JavaClass> BATCH_INTERNALS = DescribedPredicate.describe(
			"batch classes outside its API " + API + " and " + PARAMETERS_PACKAGE, BatchApiArchitectureTest::internal);

	private static final ArchRule WEB_USES_ONLY_BATCH_API = noClasses().that()
		.resideInAPackage("io.refstore.web..")
		.should()
		.dependOnClassesThat(BATCH_INTERNALS)
		.because("the web layer drives jobs through the batch module's API only");

	@Test
	void webUsesOnlyTheBatchApi() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(RefstoreApplication.class)).as("main classes imported").isTrue();
		WEB_USES_ONLY_BATCH_API.check(web);
	}

	/**
	 * The rule flags a web class that reaches into the batch module's internals, and
	 * passes one that does not.
	 */
	@Test
	void theRuleCatchesAnInternalAndPassesTheApi() {
		JavaClasses classes = new ClassFileImporter().importClasses(UsesInternals.class, UsesApi.class);
		EvaluationResult result = WEB_USES_ONLY_BATCH_API.evaluate(classes);
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).isNotEmpty()
			.allSatisfy((line) -> assertThat(line).contains(UsesInternals.class.getSimpleName()))
			.anySatisfy((line) -> assertThat(line).contains(JobLocks.class.getName()));
		assertThat(internal(new ClassFileImporter().importClass(RefJobType.class))).isFalse();
		assertThat(internal(new ClassFileImporter().importClass(JobLocks.class))).isTrue();
	}

	private static boolean internal(JavaClass type) {
		String name = type.getName();
		int nested = name.indexOf('$');
		String outer = (nested < 0) ? name : name.substring(0, nested);
		return name.startsWith("io.refstore.batch.") && !API.contains(outer)
				&& !type.getPackageName().equals(PARAMETERS_PACKAGE);
	}

	/** A stand-in for a web class that uses a batch internal. */
	static final class UsesInternals {

		int release(Repository repository, JobExecution execution) throws IOException {
			return JobLocks.release(repository, execution);
		}

	}

	/** A stand-in for a web class that keeps to the API. */
	static final class UsesApi {

		String job() {
			return RefJobType.VERIFY.jobName();
		}

	}

}
