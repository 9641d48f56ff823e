package io.refstore.core.repo;

import static io.refstore.core.repo.RepositoryOpenIT.ENV;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.testing.GitCli;
import io.refstore.core.testing.TempRepo;

/**
 * Repositories whose {@code core.repositoryformatversion} and {@code extensions.*}
 * refstore must refuse are refused, naming key and value, wherever git 2.39 refuses them
 * too; those it accepts are opened with the declared hash and ref format. Extensions
 * newer than git 2.39 ({@code refStorage}, {@code compatObjectFormat}) follow the fact
 * sheet (git 2.47).
 */
class RepositoryFormatIT {

	private final GitCli git = GitCli.system();

	@TempDir
	Path tmp;

	private TempRepo repo;

	@BeforeEach
	void init() {
		this.repo = TempRepo.init(this.git, this.tmp.resolve("repo"));
	}

	@Test
	void plainRepositoryIsVersionZeroSha1Files() throws IOException {
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.formatVersion()).isZero();
			assertThat(opened.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA1);
			assertThat(opened.refFormat()).isEqualTo(RefFormat.FILES);
		}
	}

	@Test
	void sha256RepositoryMadeByGitIsVersionOneSha256() throws IOException {
		TempRepo sha256 = TempRepo.init(this.git, this.tmp.resolve("sha256"), "--object-format=sha256");
		try (Repository opened = Repository.open(sha256.dir(), ENV)) {
			assertThat(opened.formatVersion()).isEqualTo(1);
			assertThat(opened.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA256);
			assertThat(opened.refFormat()).isEqualTo(RefFormat.FILES);
		}
	}

	@Test
	void versionTwoIsRefusedLikeGit() {
		set("core.repositoryformatversion", "2");
		assertGitRefuses("Expected git repo version <= 1, found 2");
		assertRefused("core.repositoryformatversion", "2", "Expected git repo version <= 1, found 2");
	}

	@Test
	void nonNumericVersionIsAConfigErrorLikeGit() throws IOException {
		set("core.repositoryformatversion", "abc");
		assertGitRefuses("bad numeric config value 'abc' for 'core.repositoryformatversion'");
		assertThatThrownBy(() -> Repository.open(this.repo.dir(), ENV)).isInstanceOf(ConfigException.class)
			.hasMessageContaining("'abc'")
			.hasMessageContaining(this.repo.gitDir().toRealPath().resolve("config") + ", line 2");
	}

	@Test
	void unknownExtensionIsFatalInVersionOneLikeGit() {
		set("core.repositoryformatversion", "1");
		set("extensions.bogus", "1");
		assertGitRefuses("unknown repository extension found:\n\tbogus");
		assertRefused("extensions.bogus", "1", "unknown repository extension found: bogus");
	}

	@Test
	void unknownExtensionIsIgnoredInVersionZeroLikeGit() throws IOException {
		set("extensions.bogus", "1");
		this.git.ok(this.repo.dir(), "rev-parse", "--git-dir");
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.formatVersion()).isZero();
		}
	}

	@Test
	void objectFormatInVersionZeroIsRefusedLikeGit() {
		set("extensions.objectFormat", "sha256");
		assertGitRefuses("repo version is 0, but v1-only extension found:\n\tobjectformat");
		assertRefused("extensions.objectformat", "sha256",
				"repo version is 0, but v1-only extension found: objectformat");
	}

	@Test
	void unknownObjectFormatIsRefusedNamingItLikeGit() {
		set("core.repositoryformatversion", "1");
		set("extensions.objectFormat", "sha512");
		assertGitRefuses("invalid value for 'extensions.objectformat': 'sha512'");
		assertRefused("extensions.objectformat", "sha512", "invalid value for 'extensions.objectformat': 'sha512'");
	}

	@Test
	void objectFormatValueIsCaseSensitiveLikeGit() {
		set("core.repositoryformatversion", "1");
		set("extensions.objectFormat", "SHA256");
		assertGitRefuses("invalid value for 'extensions.objectformat': 'SHA256'");
		assertRefused("extensions.objectformat", "SHA256", "'SHA256'");
	}

	@Test
	void refStorageInVersionZeroIsRefused() {
		set("extensions.refStorage", "reftable");
		assertRefused("extensions.refstorage", "reftable",
				"repo version is 0, but v1-only extension found: refstorage");
	}

	@Test
	void unknownRefStorageIsRefusedNamingTheValue() {
		set("core.repositoryformatversion", "1");
		set("extensions.refStorage", "bogus");
		assertGitRefuses("refstorage");
		assertRefused("extensions.refstorage", "bogus", "invalid value for 'extensions.refstorage': 'bogus'");
	}

	@Test
	void anUnknownRefStorageIsNamedBeforeTheVersionAsGitNamesIt() {
		set("extensions.refStorage", "reftable@/home/reftable");
		assertRefused("extensions.refstorage", "reftable@/home/reftable",
				"invalid value for 'extensions.refstorage': 'reftable@/home/reftable'");
	}

	@Test
	void aRefStorageUriNamesTheFormatAndWhereTheRefsAre() throws IOException {
		set("core.repositoryformatversion", "1");
		set("extensions.refStorage", "reftable://elsewhere");
		java.nio.file.Files.createDirectories(this.repo.gitDir().resolve("elsewhere"));
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.refFormat()).isEqualTo(RefFormat.REFTABLE);
			assertThat(opened.refStoragePath()).isEqualTo("elsewhere");
			assertThat(opened.refsDir()).isEqualTo(this.repo.gitDir().toRealPath().resolve("elsewhere"));
			assertThat(opened.refsCommonDir()).isEqualTo(opened.refsDir());
		}
	}

	@Test
	void refStorageSelectsTheRefFormatWhateverTheKeyCase() throws IOException {
		set("core.repositoryformatversion", "1");
		set("Extensions.RefStorage", "reftable");
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.refFormat()).isEqualTo(RefFormat.REFTABLE);
			assertThat(opened.formatVersion()).isEqualTo(1);
		}
		set("extensions.refStorage", "files");
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.refFormat()).isEqualTo(RefFormat.FILES);
		}
	}

	@Test
	void knownExtensionsAreAcceptedInVersionOne() throws IOException {
		set("core.repositoryformatversion", "1");
		for (String extension : new String[] { "noop", "noop-v1", "preciousObjects", "partialClone",
				"worktreeConfig" }) {
			set("extensions." + extension, extension.equals("partialClone") ? "origin" : "true");
		}
		set("extensions.objectFormat", "sha1");
		this.git.ok(this.repo.dir(), "rev-parse", "--git-dir");
		set("extensions.compatObjectFormat", "sha256");
		try (Repository opened = Repository.open(this.repo.dir(), ENV)) {
			assertThat(opened.formatVersion()).isEqualTo(1);
			assertThat(opened.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA1);
		}
	}

	@Test
	void formatIsReadFromTheRepositoryNotFromGlobalConfig() throws IOException {
		Path global = this.tmp.resolve("global-config");
		this.git.ok(this.tmp, "config", "-f", global.toString(), "extensions.objectFormat", "sha256");
		this.git.ok(this.tmp, "config", "-f", global.toString(), "core.repositoryformatversion", "7");
		try (Repository opened = Repository.open(this.repo.dir(),
				Map.of("GIT_CONFIG_NOSYSTEM", "1", "GIT_CONFIG_GLOBAL", global.toString()))) {
			assertThat(opened.hashAlgorithm()).isEqualTo(HashAlgorithm.SHA1);
			assertThat(opened.formatVersion()).isZero();
			assertThat(opened.config().getString("extensions", null, "objectformat")).contains("sha256");
		}
		this.git.withEnv("GIT_CONFIG_GLOBAL", global.toString()).ok(this.repo.dir(), "rev-parse", "--git-dir");
	}

	private void set(String key, String value) {
		// run outside the repository: git would refuse to work inside a repository it
		// cannot read
		this.git.ok(this.tmp, "config", "-f", this.repo.gitDir().resolve("config").toString(), key, value);
	}

	private void assertGitRefuses(String message) {
		GitCli.Result result = this.git.run(this.repo.dir(), "rev-parse", "--git-dir");
		assertThat(result.exitCode()).isEqualTo(128);
		assertThat(result.stderr()).contains(message);
	}

	private void assertRefused(String key, String value, String message) {
		assertThatThrownBy(() -> Repository.open(this.repo.dir(), ENV))
			.isInstanceOfSatisfying(UnsupportedRepositoryException.class, (ex) -> {
				assertThat(ex.key()).isEqualTo(key);
				assertThat(ex.value()).isEqualTo(value);
			})
			.hasMessageContaining(message);
	}

}
