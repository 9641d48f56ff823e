package io.refstore.core.ref;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.refstore.core.ref.RefName.Rule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each rule of {@link RefName} with the examples of the fact sheet (section 2.1), the
 * special-name classes of section 2.2, and {@link RefName#isSafe}. {@code RefNameIT}
 * compares the same rules with a real git.
 */
class RefNameTest {

	static List<Arguments> rejectedNames() {
		return List.of(Arguments.of("", Rule.EMPTY), Arguments.of("refs/heads/.hidden", Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of("refs/heads/a/.b", Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of("refs/heads/.", Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of(".refs/heads/a", Rule.COMPONENT_STARTS_WITH_DOT),
				Arguments.of("refs/heads/a.lock", Rule.COMPONENT_ENDS_WITH_LOCK),
				Arguments.of("refs/heads/a.lock/b", Rule.COMPONENT_ENDS_WITH_LOCK),
				Arguments.of("refs.lock/heads/a", Rule.COMPONENT_ENDS_WITH_LOCK),
				Arguments.of("refs/heads/a..b", Rule.DOUBLE_DOT), Arguments.of("refs/heads/..", Rule.DOUBLE_DOT),
				Arguments.of("refs/heads/a\tb", Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a\u007f", Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a\nb", Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a\0b", Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a\u001f", Rule.CONTROL_CHARACTER),
				Arguments.of("refs/heads/a b", Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a~1", Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a^", Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a:b", Rule.FORBIDDEN_CHARACTER),
				Arguments.of("refs/heads/a?", Rule.GLOB_CHARACTER), Arguments.of("refs/heads/a[", Rule.GLOB_CHARACTER),
				Arguments.of("refs/heads/a\\b", Rule.GLOB_CHARACTER), Arguments.of("refs/heads/a*", Rule.ASTERISK),
				Arguments.of("refs/*/x", Rule.ASTERISK), Arguments.of("/refs/heads/a", Rule.EMPTY_COMPONENT),
				Arguments.of("refs/heads/a/", Rule.EMPTY_COMPONENT),
				Arguments.of("refs//heads/a", Rule.EMPTY_COMPONENT), Arguments.of("/", Rule.EMPTY_COMPONENT),
				Arguments.of("refs/heads/a.", Rule.ENDS_WITH_DOT), Arguments.of("refs/heads/a.b.", Rule.ENDS_WITH_DOT),
				Arguments.of("refs/heads/a@{1}", Rule.AT_BRACE), Arguments.of("refs/heads/@{", Rule.AT_BRACE),
				Arguments.of("@", Rule.SINGLE_AT));
	}

	@ParameterizedTest
	@MethodSource("rejectedNames")
	void rejectsNameBreakingRuleInBothModes(String name, Rule rule) {
		assertThat(RefName.violation(name, true)).isEqualTo(rule);
		assertThat(RefName.violation(name, false)).isEqualTo(rule);
		assertThat(RefName.isValid(name, true)).isFalse();
	}

	@Test
	void everyRuleHasARejectedExample() {
		Set<Rule> hit = EnumSet.of(Rule.ONE_LEVEL);
		rejectedNames().forEach((arguments) -> hit.add((Rule) arguments.get()[1]));
		unwritableNames().forEach((arguments) -> hit.add((Rule) arguments.get()[1]));
		assertThat(hit).containsExactlyInAnyOrder(Rule.values());
	}

	/**
	 * Names git's update-ref writes as files below the git directory (or refuses), and
	 * which rule refuses them.
	 */
	static List<Arguments> unwritableNames() {
		return List.of(Arguments.of("objects/bf/1730de00112233445566778899aabbccddeeff", Rule.OUTSIDE_REFS),
				Arguments.of("foo/bar", Rule.OUTSIDE_REFS), Arguments.of("-refs/heads/x", Rule.OUTSIDE_REFS),
				Arguments.of("objects/info/alternates", Rule.OUTSIDE_REFS),
				Arguments.of("logs/refs/heads/main", Rule.OUTSIDE_REFS), Arguments.of("config", Rule.ONE_LEVEL),
				Arguments.of("packed-refs", Rule.ONE_LEVEL), Arguments.of("index", Rule.ONE_LEVEL),
				Arguments.of("refs", Rule.ONE_LEVEL), Arguments.of("FOO", Rule.ONE_LEVEL),
				Arguments.of("main", Rule.ONE_LEVEL), Arguments.of("Foo_HEAD", Rule.ONE_LEVEL),
				Arguments.of("FOO-BAR_HEAD", Rule.ONE_LEVEL), Arguments.of("HEAD/x", Rule.OUTSIDE_REFS),
				Arguments.of("REFS/heads/x", Rule.OUTSIDE_REFS), Arguments.of("FETCH_HEAD", Rule.PSEUDOREF),
				Arguments.of("MERGE_HEAD", Rule.PSEUDOREF), Arguments.of("refs/heads/a..b", Rule.DOUBLE_DOT),
				Arguments.of("refs/heads/x.lock", Rule.COMPONENT_ENDS_WITH_LOCK), Arguments.of("", Rule.EMPTY),
				Arguments.of("objects/../config", Rule.DOUBLE_DOT));
	}

	@ParameterizedTest
	@MethodSource("unwritableNames")
	void checkWritableRefusesNamesOutsideRefsAndRootRefs(String name, Rule rule) {
		assertThat(RefName.writableViolation(name)).isEqualTo(rule);
		assertThatThrownBy(() -> RefName.checkWritable(name)).isInstanceOf(InvalidRefNameException.class)
			.hasMessageContaining(rule.description())
			.satisfies((ex) -> assertThat(((InvalidRefNameException) ex).rule()).isEqualTo(rule));
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/heads/main", "refs/x", "refs/heads/x.lock-pre", "refs/heads/ü", "HEAD", "ORIG_HEAD",
			"FOO_HEAD", "CHERRY_PICK_HEAD", "AUTO_MERGE", "BISECT_EXPECTED_REV" })
	void checkWritableAcceptsNamesUnderRefsAndRootRefs(String name) {
		assertThat(RefName.writableViolation(name)).isNull();
		RefName.checkWritable(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "HEAD", "foo", "ORIG_HEAD", "-dash", "a@b", "x{y}", "bar" })
	void rejectsOneLevelNameUnlessAllowed(String name) {
		assertThat(RefName.violation(name, false)).isEqualTo(Rule.ONE_LEVEL);
		assertThat(RefName.violation(name, true)).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/heads/main", "refs/heads/-dash", "refs/heads/x{y}", "refs/heads/ünï", "refs/heads/@",
			"refs/heads/a@b", "refs/heads/a.lockx", "refs/heads/lock", "refs/heads/a.b", "refs/heads/{",
			"refs/heads/}@", "refs/heads/@@", "refs/heads/a@", "a/b", "refs/tags/v1.0", "refs/heads/!#$%&'()+,;<=>\"`|",
			"refs/heads/\u00a0nbsp", "refs/heads/😀" })
	void acceptsSurprisingButValidNames(String name) {
		assertThat(RefName.violation(name, false)).isNull();
		assertThat(RefName.isValid(name, true)).isTrue();
	}

	@Test
	void bytesFromEightyUpAreNotCheckedEvenWhenNotUtf8() {
		byte[] name = bytes("refs/heads/x");
		byte[] invalidUtf8 = { (byte) 0x80, (byte) 0xff, (byte) 0xc0, (byte) 0xae, (byte) 0xfe };
		byte[] both = new byte[name.length + invalidUtf8.length];
		System.arraycopy(name, 0, both, 0, name.length);
		System.arraycopy(invalidUtf8, 0, both, name.length, invalidUtf8.length);
		assertThat(RefName.violation(both, 0, both.length, false)).isNull();
	}

	@Test
	void checksOnlyTheGivenSliceOfTheBuffer() {
		byte[] buf = bytes("..refs/heads/main..");
		assertThat(RefName.violation(buf, 2, buf.length - 4, false)).isNull();
		assertThat(RefName.violation(buf, 2, buf.length - 3, false)).isEqualTo(Rule.ENDS_WITH_DOT);
		assertThat(RefName.violation(buf, 2, 0, true)).isEqualTo(Rule.EMPTY);
		assertThat(RefName.violation(buf, 7, 1, true)).isNull();
		assertThat(RefName.violation(buf, 7, 1, false)).isEqualTo(Rule.ONE_LEVEL);
	}

	@Test
	void checkThrowsNamingTheNameAndTheRule() {
		assertThatThrownBy(() -> RefName.check("refs/heads/a\tb..c", false))
			.isInstanceOfSatisfying(InvalidRefNameException.class, (ex) -> {
				assertThat(ex.refName()).isEqualTo("refs/heads/a\tb..c");
				assertThat(ex.rule()).isEqualTo(Rule.CONTROL_CHARACTER);
			})
			.hasMessage("invalid ref name 'refs/heads/a\\x09b..c': it contains a control character");
		assertThatThrownBy(() -> RefName.check("HEAD", false)).isInstanceOf(InvalidRefNameException.class)
			.hasMessageContaining("'HEAD'")
			.hasMessageContaining(Rule.ONE_LEVEL.description());
	}

	@Test
	void checkAcceptsValidNamesSilently() {
		RefName.check("refs/heads/main", false);
		RefName.check("HEAD", true);
		assertThat(RefName.isValid("refs/heads/main", false)).isTrue();
	}

	@Test
	void reportsTheFirstRuleBrokenFromTheLeft() {
		assertThat(RefName.violation("refs/heads/a~b..c", true)).isEqualTo(Rule.FORBIDDEN_CHARACTER);
		assertThat(RefName.violation("refs/heads/a..b~c", true)).isEqualTo(Rule.DOUBLE_DOT);
		assertThat(RefName.violation("refs/.x/a*", true)).isEqualTo(Rule.COMPONENT_STARTS_WITH_DOT);
		assertThat(RefName.violation("x", false)).isEqualTo(Rule.ONE_LEVEL);
	}

	@Test
	void dotsAndBracesDoNotPairAcrossComponents() {
		assertThat(RefName.violation("refs/heads/a./b", true)).isNull();
		assertThat(RefName.violation("refs/heads/a@/{b", true)).isNull();
		assertThat(RefName.violation("refs/heads/a./.b", true)).isEqualTo(Rule.COMPONENT_STARTS_WITH_DOT);
	}

	@Test
	void lockSuffixNeedsTheDot() {
		assertThat(RefName.violation("refs/heads/lock", false)).isNull();
		assertThat(RefName.violation("refs/heads/xlock", false)).isNull();
		assertThat(RefName.violation("refs/heads/.lock", false)).isEqualTo(Rule.COMPONENT_STARTS_WITH_DOT);
		assertThat(RefName.violation("a.lock", true)).isEqualTo(Rule.COMPONENT_ENDS_WITH_LOCK);
	}

	@ParameterizedTest
	@ValueSource(strings = { "HEAD", "ORIG_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "REBASE_HEAD", "BISECT_HEAD",
			"AUTO_MERGE", "BISECT_EXPECTED_REV", "NOTES_MERGE_PARTIAL", "NOTES_MERGE_REF", "MERGE_AUTOSTASH",
			"A-B_HEAD", "_HEAD" })
	void recognisesRootRefs(String name) {
		assertThat(RefName.isRootRef(name)).isTrue();
		assertThat(RefName.isPseudoRef(name)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "FETCH_HEAD", "MERGE_HEAD", "head", "Orig_HEAD", "ORIG_HEAD2", "FOO", "ORIG_HEAD/x",
			"refs/heads/ORIG_HEAD", "HEADS", "", "ÄHEAD_HEAD", "AUTO_MERGE_X" })
	void refusesNonRootRefs(String name) {
		assertThat(RefName.isRootRef(name)).isFalse();
	}

	@Test
	void pseudoRefsAreExactlyFetchHeadAndMergeHead() {
		assertThat(RefName.isPseudoRef("FETCH_HEAD")).isTrue();
		assertThat(RefName.isPseudoRef("MERGE_HEAD")).isTrue();
		assertThat(RefName.isPseudoRef("ORIG_HEAD")).isFalse();
		assertThat(RefName.isPseudoRef("HEAD")).isFalse();
		assertThat(RefName.isPseudoRef("refs/heads/FETCH_HEAD")).isFalse();
		assertThat(RefName.isPseudoRef("fetch_head")).isFalse();
	}

	@Test
	void rootRefSyntaxIsUppercaseDashAndUnderscore() {
		assertThat(RefName.isRootRefSyntax("A-B_C")).isTrue();
		assertThat(RefName.isRootRefSyntax("")).isFalse();
		assertThat(RefName.isRootRefSyntax("AbC")).isFalse();
		assertThat(RefName.isRootRefSyntax("A1")).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "refs/heads/main", "refs/x", "refs/heads/a..b", "refs/heads/a b", "refs/heads/.x",
			"refs/heads/...", "refs/heads/a\tb", "refs/heads/ü", "HEAD", "ORIG_HEAD", "_", "A_B" })
	void safeNames(String name) {
		assertThat(RefName.isSafe(name)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "refs/", "refs", "refs//x", "/refs/x", "refs/x/", "refs/.", "refs/..", "refs/./x",
			"refs/x/.", "refs/foo/../bar", "refs/foo/../../bar", "refs/a/./b", "FOO-BAR", "A/B", "Head", "-X", "config",
			"objects/info", "../HEAD", "REFS/X", "refs/heads/a\0b", "HEAD\0" })
	void unsafeNames(String name) {
		assertThat(RefName.isSafe(name)).isFalse();
	}

	@Test
	void printableEscapesControlCharactersOnly() {
		assertThat(RefName.printable("a\tb\u007fc\0ü ~")).isEqualTo("a\\x09b\\x7fc\\x00ü ~");
		assertThat(RefName.printable("refs/heads/main")).isEqualTo("refs/heads/main");
	}

	@Test
	void everyRuleHasItsOwnDescription() {
		Set<String> descriptions = new HashSet<>();
		for (Rule rule : Rule.values()) {
			assertThat(rule.description()).as(rule.name()).isNotBlank();
			descriptions.add(rule.description());
		}
		assertThat(descriptions).hasSize(Rule.values().length);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
