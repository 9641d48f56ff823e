package io.refstore.core.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class UsageNameTest {

	private static final String SHOW_REF = """
			error: unknown option `x'
			usage: refstore show-ref [--head] [-d | --dereference]
			                         [--] [<pattern>...]
			   or: refstore show-ref --exists <ref>

			    --head                show the HEAD reference
			""";

	@Test
	void renamesTheSynopsisAndMovesTheContinuationsAlignedUnderItsOptions() {
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, "git"), SHOW_REF)).isEqualTo("""
				error: unknown option `x'
				usage: git show-ref [--head] [-d | --dereference]
				                    [--] [<pattern>...]
				   or: git show-ref --exists <ref>

				    --head                show the HEAD reference
				""");
	}

	@Test
	void aContinuationAtAFixedIndentStays() {
		String forEachRef = "usage: refstore refs list [--count=<count>]\n" + " ".repeat(32)
				+ "[--format=<format>]\n\n";
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, "git"), forEachRef))
			.isEqualTo("usage: git refs list [--count=<count>]\n" + " ".repeat(32) + "[--format=<format>]\n\n");
	}

	@Test
	void theGlobalSynopsisMovesWithTheName() {
		String global = "usage: refstore [-C <path>] [-c <name>=<value>]\n" + " ".repeat(16) + "<command> [<args>]\n";
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, "git"), global))
			.isEqualTo("usage: git [-C <path>] [-c <name>=<value>]\n" + " ".repeat(11) + "<command> [<args>]\n");
	}

	@Test
	void keepsItsOwnNameWithoutAVariableOrWithOneThatIsNoCommandsName() {
		assertThat(UsageName.apply(Map.of(), SHOW_REF)).isEqualTo(SHOW_REF);
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, "refstore"), SHOW_REF)).isEqualTo(SHOW_REF);
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, "git; rm -rf /"), SHOW_REF)).isEqualTo(SHOW_REF);
		assertThat(UsageName.apply(Map.of(UsageName.VARIABLE, ""), SHOW_REF)).isEqualTo(SHOW_REF);
	}

}
