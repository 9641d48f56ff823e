package io.refstore.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.testing.ReftableGit.Version;

class ReftableGitTest {

	@TempDir
	Path temp;

	@Test
	void environmentVariableNamesTheGit() throws IOException {
		Path git = executable(this.temp.resolve("elsewhere/bin/git"));
		executable(this.temp.resolve("tools/git-2.55.0/bin/git"));

		Path found = ReftableGit.locate(Map.of("REFSTORE_REFTABLE_GIT", git.toString(), "REFSTORE_TOOLS",
				this.temp.resolve("tools").toString()), this.temp);

		assertThat(found).isEqualTo(git);
	}

	@Test
	void environmentVariableNamingNoExecutableFailsWithTheInstallHint() throws IOException {
		Path missing = this.temp.resolve("nowhere/bin/git");
		Path notExecutable = Files.createFile(this.temp.resolve("git"));

		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.locate(Map.of("REFSTORE_REFTABLE_GIT", missing.toString()), this.temp))
			.withMessageContaining("REFSTORE_REFTABLE_GIT=" + missing)
			.withMessageContaining(".ci/install-reftable-git.sh");
		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.locate(Map.of("REFSTORE_REFTABLE_GIT", notExecutable.toString()), this.temp))
			.withMessageContaining("is not an executable file");
	}

	@Test
	void withoutTheVariableTheNewestInstalledVersionWinsByNumberNotByName() throws IOException {
		Path tools = this.temp.resolve("tools");
		executable(tools.resolve("git-2.9.5/bin/git"));
		executable(tools.resolve("git-2.47.3/bin/git"));
		executable(tools.resolve("git-2.100.0.installing/bin/git"));
		Files.createDirectories(tools.resolve("git-2.99.0/bin"));
		Files.createDirectories(tools.resolve("other"));

		Path found = ReftableGit.locate(Map.of("REFSTORE_TOOLS", tools.toString()), this.temp);

		assertThat(found).isEqualTo(tools.resolve("git-2.47.3/bin/git"));
	}

	@Test
	void defaultToolsFolderIsUnderTheHomeCache() throws IOException {
		Path git = executable(this.temp.resolve(".cache/refstore/git-2.55.0/bin/git"));

		assertThat(ReftableGit.locate(Map.of("REFSTORE_REFTABLE_GIT", " "), this.temp)).isEqualTo(git);
	}

	@Test
	void nothingInstalledFailsNamingTheFolderAndTheScript() {
		Path tools = this.temp.resolve("empty");

		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.locate(Map.of("REFSTORE_TOOLS", tools.toString()), this.temp))
			.withMessageContaining("REFSTORE_REFTABLE_GIT is not set")
			.withMessageContaining(tools + " holds no git-<version>/bin/git")
			.withMessageContaining("run .ci/install-reftable-git.sh");
	}

	@Test
	void versionFrom245OnIsAccepted() {
		Path git = Path.of("/opt/git");

		assertThat(ReftableGit.requireReftable(git, "git version 2.45.0\n")).isEqualTo(new Version(2, 45, 0));
		assertThat(ReftableGit.requireReftable(git, "git version 2.55.0")).isEqualTo(new Version(2, 55, 0));
		assertThat(ReftableGit.requireReftable(git, "git version 2.47.3.windows.1\n")).isEqualTo(new Version(2, 47, 3));
		assertThat(ReftableGit.requireReftable(git, "git version 3.0\n")).isEqualTo(new Version(3, 0, 0));
	}

	@Test
	void versionBefore245FailsNamingTheVersionAndTheScript() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.requireReftable(Path.of("/usr/bin/git"), "git version 2.39.5\n"))
			.withMessageStartingWith("/usr/bin/git is git 2.39.5, which predates reftable (git >= 2.45.0 is needed)")
			.withMessageContaining("REFSTORE_REFTABLE_GIT");
		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.requireReftable(Path.of("/usr/bin/git"), "git version 2.44.9"))
			.withMessageContaining("git 2.44.9");
	}

	@Test
	void outputThatIsNoGitVersionFails() {
		assertThatIllegalStateException().isThrownBy(() -> ReftableGit.requireReftable(Path.of("/bin/true"), ""))
			.withMessageStartingWith("/bin/true is not git: 'git version' printed ''");
		assertThatIllegalStateException()
			.isThrownBy(() -> ReftableGit.requireReftable(Path.of("/bin/echo"), "version\n"))
			.withMessageContaining("printed 'version'");
	}

	private static Path executable(Path file) throws IOException {
		Files.createDirectories(file.getParent());
		Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
		return file;
	}

}
