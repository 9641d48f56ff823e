package io.refstore.core.repo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code core.fsync} grammar as far as the {@code reference} component goes. Every
 * value below was put in a repository's config and {@code git update-ref} (2.55) traced
 * with {@code strace -e fsync}: the expectation is whether git synced the new loose ref.
 */
class FsyncSettingsTest {

	@ParameterizedTest
	@ValueSource(strings = { "reference", "ref", "re", "r", "committed", "co", "com", "c", "added", "a", "all",
			"all,-reference", "-reference,reference", "reference,none", "reference, none", "x,reference", " ,reference",
			"reference,-", "reference,-,pack", "pack,reference", "index,\treference" })
	void syncsReferences(String value) {
		assertThat(FsyncSettings.coversReference(value)).as("core.fsync=%s", value).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "none", "none,none", "pack,none", "objects", "derived-metadata", "pack,-pack",
			"-reference", "-r", "-,reference", "reference ", "reference ,pack", "refs", "REFERENCE", "Reference",
			"ref-", "reference-", "none ", "index", "loose-object,pack-metadata" })
	void leavesReferences(String value) {
		assertThat(FsyncSettings.coversReference(value)).as("core.fsync=%s", value).isFalse();
	}

	@Test
	void unsetIsGitsDefaultWithoutReferences() {
		assertThat(FsyncSettings.coversReference(null)).isFalse();
	}

	@Test
	void lastValueInTheConfigWins() throws IOException {
		GitConfig config = GitConfig.parse("[core]\n\tfsync = reference\n\tfsync = pack\n", null);
		assertThat(FsyncSettings.of(config).references()).isFalse();
		config = GitConfig.parse("[core]\n\tfsync = pack\n[core]\n\tfsync = committed\n", null);
		assertThat(FsyncSettings.of(config).references()).isTrue();
	}

	@Test
	void quotedTrailingSpaceIsPartOfTheWord() throws IOException {
		// git's config parser keeps spaces inside quotes; the word "reference " then
		// names no component
		GitConfig config = GitConfig.parse("[core]\n\tfsync = \"reference \"\n", null);
		assertThat(FsyncSettings.of(config).references()).isFalse();
		config = GitConfig.parse("[core]\n\tfsync = reference   \n", null);
		assertThat(FsyncSettings.of(config).references()).isTrue();
	}

	@ParameterizedTest
	@CsvSource({ "fsync, FSYNC", "writeout-only, WRITEOUT_ONLY", "batch, BATCH", "Batch, FSYNC", "nonsense, FSYNC" })
	void methods(String value, FsyncSettings.Method method) {
		assertThat(FsyncSettings.method(value)).isEqualTo(method);
	}

	@Test
	void noMethodIsFsync() throws IOException {
		assertThat(FsyncSettings.of(GitConfig.parse("[core]\n\tbare = false\n", null)).method())
			.isEqualTo(FsyncSettings.Method.FSYNC);
	}

}
