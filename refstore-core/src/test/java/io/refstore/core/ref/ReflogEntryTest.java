package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReflogEntryTest {

	@Test
	void messagesAreNormalisedAsGitNormalisesThem() {
		// git 2.55 stores this message as "a b c d\u000be\u000cf\u0001g" in both formats:
		// its whitespace is space,
		// tab, newline and carriage return only
		assertThat(ReflogEntry.normalizeMessage("  a\nb\t\tc\rd\u000be\u000cf\u0001g  \n\n"))
			.isEqualTo("a b c d\u000be\u000cf\u0001g");
		assertThat(ReflogEntry.normalizeMessage(" \t\n")).isEmpty();
		assertThat(ReflogEntry.normalizeMessage(null)).isEmpty();
		assertThat(ReflogEntry.normalizeMessage("a  b")).isEqualTo("a b");
		assertThat(ReflogEntry.normalizeMessage("a \tb")).isEqualTo("a b");
		assertThat(ReflogEntry.normalizeMessage("a ")).isEqualTo("a");
	}

	@Test
	void aNormalMessageIsReturnedItself() {
		String message = "commit: one two";

		assertThat(ReflogEntry.normalizeMessage(message)).isSameAs(message);
		assertThat(ReflogEntry.normalizeMessage("")).isEmpty();
	}

}
