package io.refstore.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher the benchmark times and the jar it runs: the checkout's {@code ./refstore}
 * runs the command the build unpacked under {@code refstore-core/target}; an
 * installation's {@code bin/refstore} its {@code lib/}.
 */
class LauncherTest {

	private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

	@TempDir
	Path temp;

	@Test
	void checkoutLauncherRunsTheUnpackedDistribution() {
		Launcher launcher = Launcher.find(CHECKOUT.resolve("refstore"));
		assertThat(launcher.jar()).as("built by ./mvnw package").isRegularFile();
		assertThat(CHECKOUT.relativize(launcher.jar()).toString())
			.matches("refstore-core/target/(refstore-[^/]+)/\\1/lib/refstore-core-[^/]+\\.jar");
	}

	@Test
	void installedLauncherRunsItsLib() throws IOException {
		Path built = Launcher.find(CHECKOUT.resolve("refstore")).jar();
		Path home = this.temp.resolve("opt/refstore");
		Path script = Files.copy(CHECKOUT.resolve("refstore"),
				Files.createDirectories(home.resolve("bin")).resolve("refstore"));
		Path jar = Files.copy(built, Files.createDirectories(home.resolve("lib")).resolve(built.getFileName()));
		assertThat(Launcher.find(script).jar()).isEqualTo(jar);
		assertThat(Launcher.find(script).script()).isEqualTo(script);
	}

}
