package io.refstore.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Timer;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.batch.api.RefJobs;

/**
 * A node's periodic work runs on the application's one {@code TaskScheduler} (Spring
 * Boot's, sized in {@code application.yml}), never on a scheduled executor or timer of
 * its own: checked on web's and batch's compiled main classes; the rule is also shown to
 * catch each way around it. The operators' schedules fire through Quartz.
 */
class PeriodicWorkArchitectureTest {

	static final ArchRule ONE_SCHEDULER = noClasses().that()
		.resideInAnyPackage("io.refstore.web..", "io.refstore.batch..")
		.should()
		.dependOnClassesThat()
		.belongToAnyOf(ScheduledExecutorService.class, ScheduledThreadPoolExecutor.class, Timer.class)
		.because("a node's periodic work runs on the application's TaskScheduler");

	@Test
	void periodicWorkRunsOnTheApplicationsScheduler() {
		JavaClasses main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web", "io.refstore.batch");
		assertThat(main.contain(RefstoreApplication.class) && main.contain(RefJobs.class))
			.as("web's and batch's classes imported")
			.isTrue();
		ONE_SCHEDULER.check(main);
	}

	@Test
	void theRuleCatchesAnExecutorOrATimerOfItsOwn() {
		EvaluationResult result = ONE_SCHEDULER
			.evaluate(new ClassFileImporter().importClasses(OwnExecutor.class, OwnTimer.class));
		assertThat(result.getFailureReport().getDetails())
			.anySatisfy((line) -> assertThat(line).contains("OwnExecutor"))
			.anySatisfy((line) -> assertThat(line).contains("OwnTimer"));
	}

	/** Schedules the way {@link #ONE_SCHEDULER} forbids: on an executor of its own. */
	static class OwnExecutor {

		final ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();

	}

	/** Schedules the way {@link #ONE_SCHEDULER} forbids: on a timer. */
	static class OwnTimer {

		final Object heartbeat = new Timer(true);

	}

}
