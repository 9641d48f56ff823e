package io.refstore.core.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.options.StdinParser.Command;
import io.refstore.core.cli.options.StdinParser.Verb;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The command language of {@code update-ref --stdin}. Values here are full hex ids only
 * (parsed by {@link ObjectId#tryParse}); ref names as values are covered by
 * {@code UpdateRefIT}. The expected messages are git 2.39's, except that a bad ref name
 * also names the rule it breaks.
 */
class StdinParserTest {

	private static final String A = "08e550bff6b1f03289f0171a78c97939358b06d7";

	private static final String B = "27e39c8fb25121045d53cc990d1e1549845a16ce";

	private static final ObjectId ID_A = ObjectId.fromHex(HashAlgorithm.SHA1, A);

	private static final ObjectId ID_B = ObjectId.fromHex(HashAlgorithm.SHA1, B);

	private static final ObjectId ZERO = HashAlgorithm.SHA1.zeroId();

	private final List<String> warnings = new ArrayList<>();

	private StdinParser parser(String input, boolean z) {
		return parser(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), z);
	}

	private StdinParser parser(InputStream in, boolean z) {
		return new StdinParser(in, z, HashAlgorithm.SHA1,
				(value) -> Optional.ofNullable(ObjectId.tryParse(HashAlgorithm.SHA1, value)), this.warnings::add);
	}

	/**
	 * A parsed command with the ref it names (the parser keeps that only until its next
	 * command).
	 */
	private record Parsed(Verb verb, String ref, ObjectId newId, ObjectId oldId) {
	}

	private List<Parsed> parseAll(String input, boolean z) throws IOException, CommandFailure {
		StdinParser parser = parser(input, z);
		List<Parsed> commands = new ArrayList<>();
		for (Command command = parser.next(); command != null; command = parser.next()) {
			String ref = command.namesRef() ? new String(parser.refBuffer(), parser.refStart(),
					parser.refEnd() - parser.refStart(), java.nio.charset.StandardCharsets.UTF_8) : null;
			commands.add(new Parsed(command.verb(), ref, command.newId(), command.oldId()));
		}
		return commands;
	}

	private String failure(String input, boolean z) {
		try {
			parseAll(input, z);
		}
		catch (CommandFailure failure) {
			assertThat(failure.exitCode()).isEqualTo(128);
			return failure.text();
		}
		catch (IOException ex) {
			throw new AssertionError(ex);
		}
		throw new AssertionError("no failure for " + input);
	}

	@Test
	void linesParseIntoCommands() throws Exception {
		List<Parsed> commands = parseAll("update refs/heads/a " + A + "\nupdate refs/heads/b " + A + " " + B
				+ "\ncreate refs/heads/c " + A + "\ndelete refs/heads/d\ndelete refs/heads/e " + B
				+ "\nverify refs/heads/f\nverify refs/heads/g " + A
				+ "\noption no-deref\nstart\nprepare\ncommit\nabort\n", false);
		assertThat(commands).containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ID_A, null),
				new Parsed(Verb.UPDATE, "refs/heads/b", ID_A, ID_B),
				new Parsed(Verb.CREATE, "refs/heads/c", ID_A, null),
				new Parsed(Verb.DELETE, "refs/heads/d", null, null),
				new Parsed(Verb.DELETE, "refs/heads/e", null, ID_B),
				new Parsed(Verb.VERIFY, "refs/heads/f", null, ZERO),
				new Parsed(Verb.VERIFY, "refs/heads/g", null, ID_A), new Parsed(Verb.OPTION, null, null, null),
				new Parsed(Verb.START, null, null, null), new Parsed(Verb.PREPARE, null, null, null),
				new Parsed(Verb.COMMIT, null, null, null), new Parsed(Verb.ABORT, null, null, null));
	}

	@Test
	void emptyValuesMeanZeroWithoutDashZ() throws Exception {
		assertThat(parseAll("update refs/heads/a \n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ZERO, null));
		assertThat(parseAll("update refs/heads/a  \n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ZERO, ZERO));
		assertThat(parseAll("update refs/heads/a " + A + " \n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ID_A, ZERO));
		assertThat(parseAll("update refs/heads/a " + A + " \"\"\n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ID_A, ZERO));
	}

	@Test
	void quotedFieldsAreUnquotedAsC() throws Exception {
		assertThat(parseAll("update \"refs/heads/q\\303\\274\" " + A + "\n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/q\u00fc", ID_A, null));
		assertThat(parseAll("update \"refs/heads/\\\"q\" " + A + "\n", false))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/\"q", ID_A, null));
	}

	@Test
	void nulTerminatedFieldsParseIntoCommands() throws Exception {
		List<Parsed> commands = parseAll(
				"update refs/heads/a\0" + A + "\0\0update refs/heads/b\0" + A + "\0" + B + "\0create refs/heads/c\0" + A
						+ "\0delete refs/heads/d\0\0delete refs/heads/e\0" + B
						+ "\0verify refs/heads/f\0\0verify refs/heads/g\0" + A + "\0option no-deref\0start\0commit\0",
				true);
		assertThat(commands).containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ID_A, null),
				new Parsed(Verb.UPDATE, "refs/heads/b", ID_A, ID_B),
				new Parsed(Verb.CREATE, "refs/heads/c", ID_A, null),
				new Parsed(Verb.DELETE, "refs/heads/d", null, null),
				new Parsed(Verb.DELETE, "refs/heads/e", null, ID_B),
				new Parsed(Verb.VERIFY, "refs/heads/f", null, ZERO),
				new Parsed(Verb.VERIFY, "refs/heads/g", null, ID_A), new Parsed(Verb.OPTION, null, null, null),
				new Parsed(Verb.START, null, null, null), new Parsed(Verb.COMMIT, null, null, null));
	}

	@Test
	void nulTerminatedEmptyNewValueIsZeroWithAWarning() throws Exception {
		assertThat(parseAll("update refs/heads/a\0\0\0", true))
			.containsExactly(new Parsed(Verb.UPDATE, "refs/heads/a", ZERO, null));
		assertThat(this.warnings).containsExactly("update refs/heads/a: missing <new-oid>, treating as zero");
	}

	@Test
	void nulTerminatedFieldsAreNotUnquoted() throws Exception {
		assertThat(parseAll("update \"refs/heads/a\"\0" + A + "\0\0", true))
			.containsExactly(new Parsed(Verb.UPDATE, "\"refs/heads/a\"", ID_A, null));
	}

	@Test
	void commandWithoutFinalTerminatorCountsUnderDashZOnly() throws Exception {
		assertThat(parseAll("start\0commit", true)).extracting(Parsed::verb).containsExactly(Verb.START, Verb.COMMIT);
		assertThat(failure("start\ncommit", false)).isEqualTo("fatal: unknown command: commit\n");
	}

	@Test
	void commandsAreReadOneAtATime() throws Exception {
		// a reader that fails if asked for more than the first command proves the parser
		// does not read ahead
		byte[] first = "start\n".getBytes(StandardCharsets.US_ASCII);
		InputStream in = new InputStream() {
			private int pos;

			@Override
			public int read() {
				if (this.pos == first.length) {
					throw new AssertionError("read past the first command");
				}
				return first[this.pos++];
			}

			@Override
			public int read(byte[] b, int off, int len) {
				if (this.pos == first.length) {
					throw new AssertionError("read past the first command");
				}
				int n = Math.min(len, first.length - this.pos);
				System.arraycopy(first, this.pos, b, off, n);
				this.pos += n;
				return n;
			}
		};
		assertThat(parser(in, false).next()).isEqualTo(new Command(Verb.START, null, null));
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = { "`\\n`|fatal: empty command in input",
			"` update\\n`|fatal: whitespace before command:  update\\n",
			"bogus x\\n|fatal: unknown command: bogus x\\n", "start|fatal: unknown command: start",
			"update\\n|fatal: unknown command: update\\n",
			"update refs/heads/a\\n|fatal: update refs/heads/a: missing <new-oid>",
			"update  refs/heads/a A\\n|fatal: update: missing <ref>",
			"update refs/heads/a A A extra\\n|fatal: update refs/heads/a: extra input:  extra\\n",
			"update refs/heads/a A\\tx\\n|fatal: update refs/heads/a: expected SP but got: \\tx\\n",
			"update refs/heads/a A|fatal: update refs/heads/a: unexpected end of input when reading <old-oid>",
			"update refs/heads/a nothing\\n|fatal: update refs/heads/a: invalid <new-oid>: nothing",
			"update refs/heads/a A nothing\\n|fatal: update refs/heads/a: invalid <old-oid>: nothing",
			"update refs/heads/a..b A\\n|fatal: invalid ref format: refs/heads/a..b",
			"update refs/heads/a.lock A\\n|fatal: invalid ref format: refs/heads/a.lock",
			"update \"refs/heads/q\\x\" A\\n|fatal: badly quoted argument: \"refs/heads/q\\x\" A\\n",
			"update \"refs/heads/q A\\n|fatal: badly quoted argument: \"refs/heads/q A\\n",
			"update \"refs/heads/q\"x A\\n|fatal: unexpected character after quoted argument: \"refs/heads/q\"x A\\n",
			"create refs/heads/a\\n|fatal: create refs/heads/a: missing <new-oid>",
			"create refs/heads/a Z\\n|fatal: create refs/heads/a: zero <new-oid>",
			"create refs/heads/a A A\\n|fatal: create refs/heads/a: extra input:  A\\n",
			"delete refs/heads/a Z\\n|fatal: delete refs/heads/a: zero <old-oid>",
			"delete refs/heads/a \\n|fatal: delete refs/heads/a: zero <old-oid>",
			"delete refs/heads/a|fatal: delete refs/heads/a: unexpected end of input when reading <old-oid>",
			"verify refs/heads/a A x\\n|fatal: verify refs/heads/a: extra input:  x\\n",
			"option bogus\\n|fatal: option unknown: bogus\\n",
			"option no-deref x\\n|fatal: option unknown: no-deref x\\n",
			"option no-deref|fatal: option unknown: no-deref" })
	void badLinesAreFatalWithGitsMessages(String input, String message) {
		assertThat(failure(unescape(input), false)).isEqualTo(unescape(message) + "\n");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = { "`\\0`|fatal: empty command in input",
			"update refs/heads/a\\0A|fatal: update refs/heads/a: unexpected end of input when reading <old-oid>",
			"update refs/heads/a\\0A\\0|fatal: update refs/heads/a: unexpected end of input when reading <old-oid>",
			"update refs/heads/a|fatal: update refs/heads/a: unexpected end of input when reading <new-oid>",
			"update refs/heads/a\\0|fatal: update refs/heads/a: unexpected end of input when reading <new-oid>",
			"update refs/heads/a\\0nothing\\0\\0|fatal: update refs/heads/a: invalid <new-oid>: nothing",
			"create refs/heads/a\\0\\0|fatal: create refs/heads/a: missing <new-oid>",
			"create refs/heads/a\\0Z\\0|fatal: create refs/heads/a: zero <new-oid>",
			"delete refs/heads/a\\0Z\\0|fatal: delete refs/heads/a: zero <old-oid>",
			"update refs/heads/a b\\0A\\0\\0|fatal: invalid ref format: refs/heads/a b",
			"update \\0A\\0\\0|fatal: update: missing <ref>" })
	void badFieldsAreFatalWithGitsMessagesUnderDashZ(String input, String message) {
		assertThat(failure(unescape(input), true)).isEqualTo(unescape(message) + "\n");
	}

	@Test
	void controlCharactersInABadNameAreShownAsQuestionMarksAsGitShowsThem() {
		assertThat(failure("update refs/heads/a\u0001b\0" + A + "\0\0", true))
			.isEqualTo("fatal: invalid ref format: refs/heads/a?b\n");
	}

	/**
	 * {@code \n}, {@code \t}, {@code \0} escapes and {@code A}, {@code Z} for the test
	 * ids.
	 */
	private static String unescape(String s) {
		return s.replace("\\n", "\n")
			.replace("\\t", "\t")
			.replace("\\0", "\0")
			.replace(" A", " " + A)
			.replace("\0A", "\0" + A)
			.replace(" Z", " " + ZERO.name())
			.replace("\0Z", "\0" + ZERO.name());
	}

}
