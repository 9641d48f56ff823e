package io.refstore.web;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.web.archfixture.one.One;
import io.refstore.web.audit.AuditLog;
import io.refstore.web.security.Actors;

/**
 * No package cycle in the web layer: each package is a slice of its own (the root
 * package, each feature with its console pages, the console's shared package and its two
 * subpackages too); and security does not depend on the fleet. Checked on web's compiled
 * main classes; the cycle rule is also shown to catch a cycle.
 */
class PackageCyclesTest {

	/** Every package of web, one slice each, free of cycles. */
	static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.refstore.(**)")
		.should()
		.beFreeOfCycles()
		.because("a cycle ties packages together: none can be understood, tested or changed alone");

	/**
	 * The fleet builds on security (roles, its filter chains), never the other way: the
	 * fleet puts its node authentication into the chains as a
	 * {@code Customizer<HttpSecurity>} bean.
	 */
	static final ArchRule SECURITY_KNOWS_NO_FLEET = noClasses().that()
		.resideInAPackage("io.refstore.web.security..")
		.should()
		.dependOnClassesThat()
		.resideInAPackage("io.refstore.web.fleet..")
		.because("the fleet contributes to security's filter chains; security declares what it needs");

	@Test
	void noPackageCycles() {
		JavaClasses web = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
			.importPackages("io.refstore.web");
		assertThat(web.contain(RefstoreApplication.class) && web.contain(AuditLog.class) && web.contain(Actors.class))
			.as("web's classes imported")
			.isTrue();
		NO_PACKAGE_CYCLES.check(web);
		SECURITY_KNOWS_NO_FLEET.check(web);
	}

	@Test
	void theRuleCatchesACycle() {
		EvaluationResult cycle = NO_PACKAGE_CYCLES
			.evaluate(new ClassFileImporter().importPackages("io.refstore.web.archfixture"));
		assertThat(cycle.hasViolation()).isTrue();
		assertThat(cycle.getFailureReport().toString()).contains(One.class.getName());
	}

}
