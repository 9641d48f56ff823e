package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link RepositoryPaths} on the real file system: two roots and a directory outside
 * both, with real symbolic links between them.
 */
class RepositoryPathsTest {

	@TempDir
	Path tmp;

	private Path first;

	private Path second;

	private Path outside;

	private RepositoryPaths paths;

	@BeforeEach
	void layout() throws IOException {
		this.first = Files.createDirectories(this.tmp.resolve("roots/first"));
		this.second = Files.createDirectories(this.tmp.resolve("roots/second"));
		this.outside = Files.createDirectories(this.tmp.resolve("outside/secret.git"));
		Files.createDirectories(this.first.resolve("team/project.git"));
		Files.createDirectories(this.second.resolve("team/project.git"));
		Files.createDirectories(this.second.resolve("only-second.git"));
		this.paths = new RepositoryPaths(List.of(this.first, this.second));
	}

	@Test
	void resolvesANestedNameToItsRealDirectory() throws IOException {
		assertThat(this.paths.resolve("repository", "team/project.git"))
			.contains(this.first.resolve("team/project.git").toRealPath());
	}

	@Test
	void searchesTheRootsInOrder() throws IOException {
		assertThat(this.paths.resolve("repository", "only-second.git"))
			.contains(this.second.resolve("only-second.git").toRealPath());
		assertThat(this.paths.roots()).containsExactly(this.first.toRealPath(), this.second.toRealPath());
	}

	@Test
	void namesTheRootsAsStoragesAndFindsAStoragesRepositoryByItsQualifiedName() throws IOException {
		assertThat(this.paths.storages()).containsExactly(java.util.Map.entry("default", this.first.toRealPath()),
				java.util.Map.entry("default-2", this.second.toRealPath()));
		// the first root wins for the plain name; the storage's name picks the second
		assertThat(this.paths.resolve("repository", "default-2/team/project.git"))
			.contains(this.second.resolve("team/project.git").toRealPath());
		assertThat(this.paths.resolve("repository", "default/only-second.git")).isEmpty();
		assertThat(this.paths.locate(this.second.resolve("team/project.git").toRealPath()))
			.contains(new RepositoryPaths.Located("default-2", "team/project.git"));
		assertThat(this.paths.locate(this.outside.toRealPath())).isEmpty();
		assertThatThrownBy(() -> this.paths.resolve("repository", "default-2/../first/team/project.git"))
			.isInstanceOf(InvalidRepositoryNameException.class);
	}

	@Test
	void namedStoragesAreRootsAndTheirNamesAreChecked() throws IOException {
		Path third = Files.createDirectories(this.tmp.resolve("roots/third"));
		Files.createDirectories(third.resolve("x.git"));
		java.util.Map<String, Path> storages = new java.util.LinkedHashMap<>();
		storages.put("nfs-1", this.second);
		storages.put("ssd", third);
		RepositoryPaths named = new RepositoryPaths(List.of(this.first, this.second), storages);
		assertThat(named.storages().keySet()).containsExactly("default", "nfs-1", "ssd");
		assertThat(named.roots()).containsExactly(this.first.toRealPath(), this.second.toRealPath(),
				third.toRealPath());
		assertThat(named.resolve("repository", "ssd/x.git")).contains(third.resolve("x.git").toRealPath());
		assertThat(named.resolve("repository", "x.git")).contains(third.resolve("x.git").toRealPath());
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RepositoryPaths(List.of(this.first), java.util.Map.of("../up", this.second)))
			.withMessageContaining("'../up' is not a storage name");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RepositoryPaths(List.of(this.first),
					new java.util.LinkedHashMap<>(java.util.Map.of("a", this.second, "b", this.second))))
			.withMessageContaining("name the same directory");
	}

	@Test
	void findsNothingForANameNoRootHolds() throws IOException {
		assertThat(this.paths.resolve("repository", "missing.git")).isEmpty();
		assertThat(this.paths.resolve("repository", "team/missing/deeper.git")).isEmpty();
	}

	@ParameterizedTest
	@ValueSource(strings = { "..", "../outside/secret.git", "team/..", "team/../../outside", "a/../b", "../../.." })
	void refusesDotDotComponents(String name) {
		assertRefused(name, "it has a '..' component");
	}

	@ParameterizedTest
	@ValueSource(strings = { ".", "./team/project.git", "team/./project.git", "team/." })
	void refusesDotComponents(String name) {
		assertRefused(name, "it has a '.' component");
	}

	@Test
	void refusesAbsolutePaths() {
		assertRefused("/etc", "absolute path");
		assertRefused(this.outside.toString(), "absolute path");
		assertRefused(this.first.resolve("team/project.git").toString(), "absolute path");
	}

	@ParameterizedTest
	@ValueSource(strings = { "team//project.git", "team/project.git/", "team/" })
	void refusesEmptyComponents(String name) {
		assertRefused(name, "empty component");
	}

	@ParameterizedTest
	@ValueSource(strings = { "%2e%2e/outside", "%2E%2E%2Foutside", "..%2foutside", "team%2fproject.git", "a%00b",
			"%252e%252e", "%c0%ae%c0%ae/x" })
	void refusesPercentEncodedNames(String name) {
		assertRefused(name, "percent-encoded");
	}

	@Test
	void refusesNulAndControlCharacters() {
		assertRefused("team/project.git\0", "NUL");
		assertRefused("a\0/../b", "NUL");
		assertRefused("team\n/project.git", "control character");
		assertRefused("team/\u007fproject.git", "control character");
	}

	@ParameterizedTest
	@ValueSource(strings = { "..\\outside", "team\\project.git", "C:\\Windows", "\\\\server\\share" })
	void refusesBackslashes(String name) {
		assertRefused(name, "backslash");
	}

	@Test
	void refusesMissingEmptyAndOverlongNames() throws IOException {
		assertRefused(null, "it is missing");
		assertRefused("", "it is empty");
		String longest = "abcd/".repeat(204) + "abcd";
		assertThat(longest).hasSize(RepositoryPaths.MAX_NAME_LENGTH);
		assertThat(this.paths.resolve("repository", longest)).isEmpty();
		assertRefused(longest + "e", "longer than " + RepositoryPaths.MAX_NAME_LENGTH);
	}

	@Test
	void refusesASymbolicLinkLeadingOutside() throws IOException {
		Files.createSymbolicLink(this.first.resolve("escape"), this.outside.getParent());
		Files.createSymbolicLink(this.first.resolve("secret.git"), this.outside);
		assertRefused("escape/secret.git", "outside the repository root");
		assertRefused("secret.git", "outside the repository root");
		// even a name that does not exist out there is refused: it would leak what
		// exists, or be created there
		assertRefused("escape/not-there.git", "outside the repository root");
	}

	@Test
	void refusesARelativeSymbolicLinkClimbingOut() throws IOException {
		Files.createSymbolicLink(this.first.resolve("up"), Path.of("../../outside/secret.git"));
		assertThat(this.first.resolve("up")).isDirectory();
		assertRefused("up", "outside the repository root");
	}

	@Test
	void refusesALinkIntoAnotherRoot() throws IOException {
		Files.createSymbolicLink(this.first.resolve("other.git"), this.second.resolve("only-second.git"));
		assertRefused("other.git", "outside the repository root " + this.first.toRealPath());
	}

	@Test
	void followsASymbolicLinkThatStaysInsideTheRoot() throws IOException {
		Files.createSymbolicLink(this.first.resolve("alias.git"), Path.of("team/project.git"));
		assertThat(this.paths.resolve("repository", "alias.git"))
			.contains(this.first.resolve("team/project.git").toRealPath());
	}

	@Test
	void refusesADanglingSymbolicLink() throws IOException {
		Files.createSymbolicLink(this.first.resolve("dangling.git"), this.tmp.resolve("nowhere"));
		assertRefused("dangling.git", "target does not exist");
		assertRefused("dangling.git/deeper", "target does not exist");
	}

	@Test
	void refusesAFile() throws IOException {
		Files.writeString(this.first.resolve("file.git"), "not a repository");
		assertRefused("file.git", "not a directory");
		assertThat(this.paths.resolve("repository", "file.git/below")).isEmpty();
	}

	@Test
	void treatsLookalikeCharactersAsLiteralNames() throws IOException {
		// FULLWIDTH FULL STOP and DIVISION SLASH are ordinary file-name characters, not
		// '.' and '/'
		assertThat(this.paths.resolve("repository", "\uff0e\uff0e/outside")).isEmpty();
		assertThat(this.paths.resolve("repository", "..\u2215outside")).isEmpty();
		Path lookalike = Files.createDirectories(this.first.resolve("\uff0e\uff0e"));
		assertThat(this.paths.resolve("repository", "\uff0e\uff0e")).contains(lookalike.toRealPath());
	}

	@Test
	void acceptsARootGivenThroughASymbolicLink() throws IOException {
		Path link = Files.createSymbolicLink(this.tmp.resolve("root-link"), this.first);
		RepositoryPaths linked = new RepositoryPaths(List.of(link));
		assertThat(linked.roots()).containsExactly(this.first.toRealPath());
		assertThat(linked.resolve("repo", "team/project.git"))
			.contains(this.first.resolve("team/project.git").toRealPath());
	}

	@Test
	void messageNamesTheParameterTheValueAndTheReason() {
		assertThatThrownBy(() -> this.paths.resolve("sourceRepository", "a/../b"))
			.isInstanceOfSatisfying(InvalidRepositoryNameException.class, (ex) -> {
				assertThat(ex.parameter()).isEqualTo("sourceRepository");
				assertThat(ex.value()).isEqualTo("a/../b");
				assertThat(ex.reason()).isEqualTo("it has a '..' component");
			})
			.hasMessage("parameter 'sourceRepository' = 'a/../b' is refused: it has a '..' component");
		assertThatThrownBy(() -> this.paths.resolve("repository", "a\tb"))
			.hasMessage("parameter 'repository' = 'a\\x09b' is refused: it contains a control character");
	}

	@Test
	void refusesBadRoots() throws IOException {
		Path file = Files.writeString(this.tmp.resolve("file"), "x");
		assertThatIllegalArgumentException().isThrownBy(() -> new RepositoryPaths(List.of()))
			.withMessageContaining("roots");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new RepositoryPaths(List.of(this.first, this.tmp.resolve("missing"))))
			.withMessageContaining("roots[1]")
			.withMessageContaining("missing");
		assertThatIllegalArgumentException().isThrownBy(() -> new RepositoryPaths(List.of(file)))
			.withMessageContaining("roots[0]");
	}

	private void assertRefused(String name, String reason) {
		assertThatThrownBy(() -> this.paths.resolve("repository", name))
			.isInstanceOf(InvalidRepositoryNameException.class)
			.hasMessageStartingWith("parameter 'repository' = ")
			.hasMessageContaining(reason);
	}

}
