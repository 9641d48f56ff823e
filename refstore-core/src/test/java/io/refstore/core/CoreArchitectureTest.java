package io.refstore.core;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleName;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameStartingWith;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.EvaluationResult;

import io.refstore.core.archfixture.one.One;
import io.refstore.core.files.FilesLayout;
import io.refstore.core.files.FilesRefStore;
import io.refstore.core.ref.CorruptRefStoreException;
import io.refstore.core.ref.RefStoreContractTest;
import io.refstore.core.ref.RefUpdate;
import io.refstore.core.reftable.ReftableInitialWriter;
import io.refstore.core.reftable.ReftableRefStore;
import io.refstore.core.reftable.format.ReftableReader;
import io.refstore.core.repo.Repository;
import io.refstore.core.store.RefStores;

/**
 * The shape of core's packages: no package cycle (each package is a slice of its own, the
 * root package too); {@code io.refstore.core.ref}, the contract every layer programs
 * against, depends on no other refstore package; only {@code io.refstore.core.store}
 * reaches the backends, which know nothing of each other; reftable's format
 * ({@code reftable.format}) knows nothing of its file storage ({@code reftable}); no two
 * top-level classes share a simple name. Checked on core's compiled main classes; each
 * rule is also shown to catch what it forbids.
 */
class CoreArchitectureTest {

	/** Every package of core, one slice each, free of cycles. */
	static final ArchRule NO_PACKAGE_CYCLES = slices().matching("io.refstore.(**)")
		.should()
		.beFreeOfCycles()
		.because("a cycle ties packages together: none can be understood, tested or changed alone");

	/** The contract is a leaf. */
	static final ArchRule REF_IS_A_LEAF = noClasses().that()
		.resideInAPackage("io.refstore.core.ref..")
		.should()
		.dependOnClassesThat(resideInAPackage("io.refstore..").and(not(resideInAPackage("io.refstore.core.ref.."))))
		.because("core.ref is the contract (refs, stores, transactions) that backends implement and callers use");

	/** Only core.store opens the backends, and neither backend knows the other. */
	static final ArchRule BACKENDS_BEHIND_STORE = CompositeArchRule
		.of(noClasses().that()
			.resideOutsideOfPackages("io.refstore.core.files..", "io.refstore.core.reftable..",
					"io.refstore.core.store..")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("io.refstore.core.files..", "io.refstore.core.reftable..")
			.because("everything above the backends goes through RefStores, RefStore and StoreLayout"))
		.and(noClasses().that()
			.resideInAPackage("io.refstore.core.files..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.refstore.core.reftable..")
			.allowEmptyShould(true))
		.and(noClasses().that()
			.resideInAPackage("io.refstore.core.reftable..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("io.refstore.core.files..")
			.allowEmptyShould(true));

	/**
	 * The reftable format is bytes in, bytes out: its package knows nothing of the file
	 * storage built on it (the stack, the store, transactions, compaction, the files on
	 * disk), opens no file and takes no lock. A table's file name travels through it only
	 * as a {@link Path}, the name its errors carry
	 * ({@link CorruptRefStoreException#file()}).
	 */
	static final ArchRule REFTABLE_FORMAT_APART_FROM_STORAGE = noClasses().that()
		.resideInAPackage("io.refstore.core.reftable.format..")
		.should()
		.dependOnClassesThat(resideInAPackage("io.refstore.core.reftable").or(resideInAPackage("io.refstore.core.io.."))
			.or(resideInAnyPackage("java.nio.file..", "java.nio.channels..", "java.util.concurrent.locks..")
				.and(not(equivalentTo(Path.class))))
			.or(resideInAPackage("java.io").and(simpleNameStartingWith("File").or(simpleName("RandomAccessFile")))))
		.because("the format (blocks, records, tables, merged iteration) reads and writes bytes; the file storage "
				+ "around it may depend on it, never the reverse");

	/**
	 * The simple names that more than one top-level class bears, each with the classes'
	 * full names: a name used twice makes every reader and every import ask which one.
	 */
	static Map<String, TreeSet<String>> sharedSimpleNames(JavaClasses classes) {
		Map<String, TreeSet<String>> byName = new TreeMap<>();
		for (JavaClass type : classes) {
			if (type.isTopLevelClass()) {
				byName.computeIfAbsent(type.getSimpleName(), (name) -> new TreeSet<>()).add(type.getName());
			}
		}
		byName.values().removeIf((names) -> names.size() < 2);
		return byName;
	}

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages("io.refstore.core");

	@Test
	void coreHasNoPackageCycle() {
		assertThat(CORE.contain(RefStores.class) && CORE.contain(Repository.class)).as("core's classes imported")
			.isTrue();
		NO_PACKAGE_CYCLES.check(CORE);
	}

	@Test
	void refDependsOnNoOtherRefstorePackage() {
		assertThat(CORE.contain(RefUpdate.class)).as("core.ref's classes imported").isTrue();
		REF_IS_A_LEAF.check(CORE);
	}

	@Test
	void onlyTheStorePackageReachesTheBackends() {
		assertThat(CORE.contain(FilesRefStore.class) && CORE.contain(ReftableRefStore.class)).as("backends imported")
			.isTrue();
		BACKENDS_BEHIND_STORE.check(CORE);
	}

	@Test
	void reftableFormatKnowsNothingOfItsFileStorage() {
		assertThat(CORE.contain(ReftableReader.class) && CORE.contain(ReftableRefStore.class))
			.as("reftable's format and storage imported")
			.isTrue();
		REFTABLE_FORMAT_APART_FROM_STORAGE.check(CORE);
	}

	@Test
	void noTwoClassesShareASimpleName() {
		assertThat(CORE.contain(RefStores.class)).as("core's classes imported").isTrue();
		assertThat(sharedSimpleNames(CORE)).as("simple names of more than one class").isEmpty();
	}

	@Test
	void rulesCatchWhatTheyForbid() {
		EvaluationResult cycle = NO_PACKAGE_CYCLES
			.evaluate(new ClassFileImporter().importPackages("io.refstore.core.archfixture"));
		assertThat(cycle.hasViolation()).isTrue();
		assertThat(cycle.getFailureReport().toString()).contains(One.class.getName());
		// a test class of core.ref opens stores and repositories, which the main classes
		// of core.ref must not
		EvaluationResult leaf = REF_IS_A_LEAF
			.evaluate(new ClassFileImporter().importClasses(RefStoreContractTest.class));
		assertThat(leaf.hasViolation()).isTrue();
		assertThat(leaf.getFailureReport().toString()).contains(RefStores.class.getName());
		EvaluationResult backend = BACKENDS_BEHIND_STORE
			.evaluate(new ClassFileImporter().importPackages("io.refstore.core.archfixture"));
		assertThat(backend.hasViolation()).isTrue();
		assertThat(backend.getFailureReport().toString()).contains(FilesLayout.class.getName());
		// the format's tests, unlike its main classes, write through the file storage and
		// touch files
		EvaluationResult format = REFTABLE_FORMAT_APART_FROM_STORAGE
			.evaluate(new ClassFileImporter().importPackages("io.refstore.core.reftable.format"));
		assertThat(format.hasViolation()).isTrue();
		assertThat(format.getFailureReport().toString()).contains(ReftableInitialWriter.class.getName())
			.contains(Files.class.getName());
		assertThat(sharedSimpleNames(new ClassFileImporter().importPackages("io.refstore.core.archfixture")))
			.containsOnlyKeys("Twin");
	}

}
