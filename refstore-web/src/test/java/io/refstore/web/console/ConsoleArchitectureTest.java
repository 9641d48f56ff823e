package io.refstore.web.console;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.RestController;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.archfixture.Outside;
import io.refstore.web.RefstoreApplication;

/**
 * Every controller that renders a page lives under {@code io.refstore.web.console}, where
 * the console's advice gives each page the header's user and role and the console's error
 * pages. A page controller elsewhere renders without them (the schedules and campaigns
 * pages did: no user, no Log out, no Audit link). Checked with ArchUnit on the compiled
 * main classes.
 */
class ConsoleArchitectureTest {

	private static final ArchRule PAGES_LIVE_IN_THE_CONSOLE = classes().that()
		.areAnnotatedWith(Controller.class)
		.and()
		.areNotAnnotatedWith(RestController.class)
		.should()
		.resideInAPackage("io.refstore.web.console..")
		.because("the console's advice (user, role, error pages) covers that package only");

	@Test
	void pageControllersLiveInTheConsole() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(RefstoreApplication.class)).as("main classes imported").isTrue();
		PAGES_LIVE_IN_THE_CONSOLE.check(web);
	}

	/** The rule flags a page controller outside the console and passes a REST one. */
	@Test
	void theRuleCatchesAPageControllerOutsideTheConsole() {
		JavaClasses classes = new ClassFileImporter().importClasses(Outside.Page.class, Outside.Api.class);
		EvaluationResult result = PAGES_LIVE_IN_THE_CONSOLE.evaluate(classes);
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).singleElement()
			.satisfies((line) -> assertThat(line).contains(Outside.Page.class.getName()));
	}

}
