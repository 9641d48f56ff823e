package io.refstore.batch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.batch.api.LeakingApi;
import io.refstore.batch.api.RefJobs;
import io.refstore.batch.archfixture.one.One;
import io.refstore.batch.support.JobLeases;

/**
 * The shape of batch's packages: no package cycle (each package is a slice of its own,
 * the root package too), and {@code io.refstore.batch.api}, what the web layer may use,
 * depends on no other package of batch, so that the jobs' internals never leak through
 * it. Batch logs through SLF4J only. Checked on batch's compiled main classes; each rule
 * is also shown to catch what it forbids.
 */
class BatchArchitectureTest {

	/** Every package of batch, one slice each, free of cycles. */
	static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.refstore.(**)")
		.should()
		.beFreeOfCycles()
		.because("a cycle ties packages together: none can be understood, tested or changed alone");

	private static final DescribedPredicate<JavaClass> BATCH_OUTSIDE_API = DescribedPredicate.describe(
			"batch classes outside io.refstore.batch.api",
			(type) -> type.getPackageName().startsWith("io.refstore.batch")
					&& !type.getPackageName().equals("io.refstore.batch.api"));

	/** The API is a leaf of batch: it names no job configuration, tasklet or service. */
	static final ArchRule API_IS_A_LEAF = noClasses().that()
		.resideInAPackage("io.refstore.batch.api")
		.should()
		.dependOnClassesThat(BATCH_OUTSIDE_API)
		.because("the web layer sees batch only through its API, which must not expose the internals");

	/**
	 * One logging API: SLF4J, which Spring Boot binds to Logback. A class logging through
	 * java.util.logging, commons-logging or System.Logger would reach Logback only
	 * through a bridge, with its own levels and configuration.
	 */
	static final ArchRule SLF4J_ONLY = noClasses().that()
		.resideInAPackage("io.refstore.batch..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("java.util.logging..", "org.apache.commons.logging..")
		.orShould()
		.dependOnClassesThat()
		.belongToAnyOf(System.Logger.class)
		.because("batch logs through SLF4J only");

	private static final JavaClasses BATCH = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("io.refstore.batch");

	@Test
	void noPackageCycles() {
		assertThat(BATCH.contain(RefBatchConfiguration.class) && BATCH.contain(JobLeases.class))
			.as("batch's classes imported")
			.isTrue();
		NO_PACKAGE_CYCLES.check(BATCH);
	}

	@Test
	void theApiDependsOnNoOtherBatchPackage() {
		assertThat(BATCH.contain(RefJobs.class)).as("the API's classes imported").isTrue();
		API_IS_A_LEAF.check(BATCH);
	}

	@Test
	void logsThroughSlf4jOnly() {
		assertThat(BATCH.contain(RefBatchConfiguration.class)).as("batch's classes imported").isTrue();
		SLF4J_ONLY.check(BATCH);
	}

	@Test
	void theRulesCatchWhatTheyForbid() {
		EvaluationResult cycle = NO_PACKAGE_CYCLES
			.evaluate(new ClassFileImporter().importPackages("io.refstore.batch.archfixture"));
		assertThat(cycle.hasViolation()).isTrue();
		assertThat(cycle.getFailureReport().toString()).contains(One.class.getName());
		EvaluationResult leaf = API_IS_A_LEAF
			.evaluate(new ClassFileImporter().importClasses(RefJobs.class, JobLeases.class, LeakingApi.class));
		assertThat(leaf.hasViolation()).isTrue();
		assertThat(leaf.getFailureReport().getDetails()).isNotEmpty()
			.allSatisfy((line) -> assertThat(line).contains(LeakingApi.class.getName()));
		EvaluationResult logging = SLF4J_ONLY.evaluate(
				new ClassFileImporter().importClasses(JulLogging.class, CommonsLogging.class, SystemLogging.class));
		assertThat(logging.getFailureReport().getDetails())
			.anySatisfy((line) -> assertThat(line).contains("JulLogging"))
			.anySatisfy((line) -> assertThat(line).contains("CommonsLogging"))
			.anySatisfy((line) -> assertThat(line).contains("SystemLogging"));
	}

	/** Logs the way {@link #SLF4J_ONLY} forbids: through java.util.logging. */
	static class JulLogging {

		final java.util.logging.Logger log = java.util.logging.Logger.getLogger("refstore");

	}

	/** Logs the way {@link #SLF4J_ONLY} forbids: through commons-logging. */
	static class CommonsLogging {

		final org.apache.commons.logging.Log log = org.apache.commons.logging.LogFactory.getLog("refstore");

	}

	/** Logs the way {@link #SLF4J_ONLY} forbids: through System.Logger. */
	static class SystemLogging {

		final System.Logger log = System.getLogger("refstore");

	}

}
