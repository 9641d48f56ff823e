package io.refstore.web.console;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.RestController;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.archfixture.Outside;
import io.refstore.web.RefstoreApplication;
import io.refstore.web.jobs.JobView;

/**
 * Every controller that renders a page carries {@link ConsoleController}, which the
 * console's advice selects by: each page gets the header's user and role and the
 * console's error pages, whatever its package. A page controller without it renders
 * without them (the schedules and campaigns pages once did: no user, no Log out, no Audit
 * link) and its errors become the API's problem details. Checked with ArchUnit on the
 * compiled main classes.
 */
class ConsoleArchitectureTest {

	private static final ArchRule PAGES_ARE_CONSOLE_CONTROLLERS = classes().that()
		.areMetaAnnotatedWith(Controller.class)
		.and()
		.areNotMetaAnnotatedWith(RestController.class)
		.and()
		.areNotAnnotations()
		.should()
		.beAnnotatedWith(ConsoleController.class)
		.because("the console's advice (user, role, error pages) applies to @ConsoleController classes only");

	/**
	 * The console's shared package (the marker, the advices, the user and the formats)
	 * depends on no feature, so every feature can keep its pages beside its service
	 * without a package cycle. Only security (roles, and which role a job needs) and
	 * system lie below it.
	 */
	private static final ArchRule THE_CONSOLE_DEPENDS_ON_NO_FEATURE = classes().that()
		.resideInAPackage("io.refstore.web.console")
		.should()
		.onlyDependOnClassesThat(resideOutsideOfPackage("io.refstore.web..")
			.or(resideInAnyPackage("io.refstore.web.console", "io.refstore.web.security", "io.refstore.web.system")))
		.because("features depend on the console's marker and user: a dependency back would be a cycle");

	@Test
	void theConsoleDependsOnNoFeature() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(ConsoleAdvice.class)).as("main classes imported").isTrue();
		THE_CONSOLE_DEPENDS_ON_NO_FEATURE.check(web);
	}

	/**
	 * The rule flags a console class that uses a feature, and passes the console's own.
	 */
	@Test
	void theRuleCatchesTheConsoleUsingAFeature() {
		JavaClasses classes = new ClassFileImporter().importClasses(ConsoleFormat.class, UsesAFeature.class);
		EvaluationResult result = THE_CONSOLE_DEPENDS_ON_NO_FEATURE.evaluate(classes);
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).isNotEmpty()
			.allSatisfy((line) -> assertThat(line).contains(UsesAFeature.class.getName()));
	}

	@Test
	void pageControllersAreConsoleControllers() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(RefstoreApplication.class)).as("main classes imported").isTrue();
		assertThat(web.stream().filter((type) -> type.isAnnotatedWith(ConsoleController.class)))
			.as("page controllers found")
			.hasSizeGreaterThan(10);
		PAGES_ARE_CONSOLE_CONTROLLERS.check(web);
	}

	/** The console's advices choose their controllers by annotation, none by package. */
	@Test
	void theConsoleAdviceChoosesByAnnotation() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		int scoped = 0;
		for (JavaClass type : web) {
			ControllerAdvice advice = AnnotatedElementUtils.findMergedAnnotation(type.reflect(),
					ControllerAdvice.class);
			if (advice == null) {
				continue;
			}
			assertThat(advice.basePackages()).as(type.getName() + " basePackages").isEmpty();
			assertThat(advice.basePackageClasses()).as(type.getName() + " basePackageClasses").isEmpty();
			if (advice.annotations().length > 0) {
				assertThat(advice.annotations()).as(type.getName()).containsExactly(ConsoleController.class);
				scoped++;
			}
		}
		assertThat(scoped).as("advices scoped to the console's pages").isEqualTo(1);
	}

	/**
	 * The rule flags a page controller without the marker, and passes a marked one and a
	 * REST one.
	 */
	@Test
	void theRuleCatchesAPageControllerWithoutTheMarker() {
		JavaClasses classes = new ClassFileImporter().importClasses(Outside.Page.class, Outside.ConsolePage.class,
				Outside.Api.class);
		EvaluationResult result = PAGES_ARE_CONSOLE_CONTROLLERS.evaluate(classes);
		assertThat(result.hasViolation()).isTrue();
		assertThat(result.getFailureReport().getDetails()).singleElement()
			.satisfies((line) -> assertThat(line).contains(Outside.Page.class.getName()));
	}

	/** A class of the console's package that reaches into a feature. */
	static final class UsesAFeature {

		JobView job;

	}

}
