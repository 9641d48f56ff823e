package io.refstore.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.springframework.batch.core.job.JobExecution;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.batch.RefBatchConfiguration;
import io.refstore.batch.api.RefJobType;
import io.refstore.batch.support.JobLocks;
import io.refstore.core.repo.Repository;

/**
 * The web layer drives jobs only through the batch module's API, the package
 * {@value #API_PACKAGE}: the job types, statuses and names, the typed parameter records,
 * the keys of parameters and results, the inventory it records, the {@code RefJobs}
 * facade and what it throws. Besides, the application imports
 * {@link RefBatchConfiguration} to set the jobs up, and uses nothing else of it. Anything
 * else in {@code io.refstore.batch} (job configurations, tasklets, the validator, leases,
 * locks, listeners, properties, the facade's implementation) is the module's own and may
 * change without the web layer noticing. Checked on the compiled main classes, with
 * ArchUnit, which sees every type the bytecode refers to.
 */
class BatchApiArchitectureTest {

	/**
	 * The batch module's API. Repository roots and names are core's ({@code core.repo}).
	 */
	static final String API_PACKAGE = "io.refstore.batch.api";

	/** What the application imports to set the jobs up. */
	static final String CONFIGURATION = RefBatchConfiguration.class.getName();

	private static final DescribedPredicate<JavaClass> BATCH_INTERNALS = DescribedPredicate
		.describe("batch classes outside " + API_PACKAGE + " and " + CONFIGURATION, BatchApiArchitectureTest::internal);

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
		assertThat(internal(new ClassFileImporter().importClass(RefBatchConfiguration.class))).isFalse();
		assertThat(internal(new ClassFileImporter().importClass(JobLocks.class))).isTrue();
	}

	private static boolean internal(JavaClass type) {
		String name = type.getName();
		int nested = name.indexOf('$');
		String outer = (nested < 0) ? name : name.substring(0, nested);
		return name.startsWith("io.refstore.batch.") && !type.getPackageName().equals(API_PACKAGE)
				&& !outer.equals(CONFIGURATION);
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
