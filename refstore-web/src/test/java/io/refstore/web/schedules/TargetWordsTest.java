package io.refstore.web.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.refstore.web.console.ConsoleFormat;

class TargetWordsTest {

	private final TargetWords targets = new TargetWords(new ConsoleFormat());

	@Test
	void targetsInWords() {
		assertThat(this.targets.words(Schedule.TargetKind.REPOSITORY, "demo.git")).isEqualTo("demo.git");
		assertThat(this.targets.words(Schedule.TargetKind.GLOB, "team/*")).isEqualTo("matching team/*");
		assertThat(this.targets.words(Schedule.TargetKind.LOOSE_REFS_ABOVE, "25000"))
			.isEqualTo("with more than 25,000 loose refs");
		assertThat(this.targets.words(Schedule.TargetKind.LOOSE_REFS_ABOVE, "many"))
			.isEqualTo("with more than many loose refs");
	}

}
