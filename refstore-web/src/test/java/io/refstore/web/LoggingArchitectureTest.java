package io.refstore.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

/**
 * The web layer logs through SLF4J only, the API Spring Boot binds to Logback: a class
 * logging through java.util.logging, commons-logging or System.Logger would reach Logback
 * only through a bridge, with its own levels and configuration. Checked on web's compiled
 * main classes; the rule is also shown to catch each of the three.
 */
class LoggingArchitectureTest {

	static final ArchRule SLF4J_ONLY = noClasses().that()
		.resideInAPackage("io.refstore.web..")
		.should()
		.dependOnClassesThat()
		.resideInAnyPackage("java.util.logging..", "org.apache.commons.logging..")
		.orShould()
		.dependOnClassesThat()
		.belongToAnyOf(System.Logger.class)
		.because("the web layer logs through SLF4J only");

	@Test
	void logsThroughSlf4jOnly() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(RefstoreApplication.class)).as("web's classes imported").isTrue();
		SLF4J_ONLY.check(web);
	}

	@Test
	void theRuleCatchesEachOtherLoggingApi() {
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
