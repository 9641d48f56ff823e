package io.refstore.batch.delete;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.refstore.core.delete.ProtectedRefs;

/**
 * What a plan file says it protects: its {@code select protect} lines (none: nothing, an override), and for a
 * version 1 plan, written before protection existed, the defaults, so that executing it never deletes them.
 */
class DeletionPlanTest {

	@TempDir
	Path tmp;

	private DeletionPlan.Summary read(String text) throws IOException {
		Path file = Files.writeString(this.tmp.resolve("plan"), text);
		return DeletionPlan.summary(file, 10);
	}

	@Test
	void aPlanProtectsWhatItsProtectLinesSay() throws IOException {
		DeletionPlan.Summary plan = read("refstore-deletion-plan 2\nselect prefix refs/\nselect protect refs/notes/**\n"
				+ "select protect HEAD\nref refs/heads/x 0123456789012345678901234567890123456789\nend 1\n");
		assertThat(plan.selection().protection().entries()).containsExactly("refs/notes/**", "HEAD");
		assertThat(plan.count()).isEqualTo(1);
		assertThat(plan.sample()).containsExactly("refs/heads/x");
	}

	@Test
	void aPlanWithoutProtectLinesProtectsNothing() throws IOException {
		assertThat(read("refstore-deletion-plan 2\nselect prefix refs/\nend 0\n").selection().protection().isEmpty())
			.isTrue();
	}

	@Test
	void aVersionOnePlanProtectsTheDefaults() throws IOException {
		assertThat(read("refstore-deletion-plan 1\nselect prefix refs/\nend 0\n").selection().protection())
			.isSameAs(ProtectedRefs.defaults());
	}

	@Test
	void anotherVersionIsRefused() {
		assertThatThrownBy(() -> read("refstore-deletion-plan 3\nend 0\n")).isInstanceOf(IOException.class)
			.hasMessageEndingWith("plan:1: not a refstore deletion plan (version 1 or 2)");
	}

}
