package io.refstore.core.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;
import io.refstore.core.cli.format.FormatTemplate.Atom;
import io.refstore.core.cli.format.FormatTemplate.Field;
import io.refstore.core.cli.format.FormatTemplate.Literal;
import io.refstore.core.cli.format.FormatTemplate.Modifier;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * Compiling formats, and rendering the atoms that need neither objects nor other refs
 * ({@code ForEachRefIT} compares every atom with git).
 */
class FormatTemplateTest {

	private static final ObjectId ID = ObjectId.fromHex(HashAlgorithm.SHA1, "08e550bff6b1f03289f0171a78c97939358b06d7");

	private static FormatTemplate parse(String format) throws CommandFailure {
		return FormatTemplate.parse(format, "usage: test\n");
	}

	private static String render(String format, String name, String target) throws Exception {
		RefFields fields = new RefFields(HashAlgorithm.SHA1, null, null, true, 7);
		byte[] nameBytes = name.getBytes(StandardCharsets.UTF_8);
		byte[] targetBytes = (target != null) ? target.getBytes(StandardCharsets.UTF_8) : null;
		fields.set(nameBytes, nameBytes.length, ID.toRaw(), targetBytes, (target != null) ? targetBytes.length : 0);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		OutBuffer out = new OutBuffer(bytes);
		parse(format).render(fields, out);
		out.flush();
		return bytes.toString(StandardCharsets.ISO_8859_1);
	}

	@Test
	void defaultFormatIsObjectNameTypeTabRefname() throws CommandFailure {
		assertThat(parse(FormatTemplate.DEFAULT).segments()).usingRecursiveFieldByFieldElementComparator()
			.containsExactly(new Atom(Field.OBJECTNAME, Modifier.NONE, 0), new Literal(new byte[] { ' ' }),
					new Atom(Field.OBJECTTYPE, Modifier.NONE, 0), new Literal(new byte[] { '\t' }),
					new Atom(Field.REFNAME, Modifier.NONE, 0));
	}

	@ParameterizedTest(name = "{0} prints {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = { "%%|%", "%%%|%%", "%41%42|AB", "%4|%4", "%zz|%zz",
			"%|%", "a%|a%", "%%(refname)|%(refname)", "%7E|~", "x)|x)" })
	void literalsDecodeEscapesAsGitDoes(String format, String expected) throws Exception {
		assertThat(render(format, "refs/heads/main", null)).isEqualTo(expected);
	}

	@Test
	void hexEscapesCanProduceControlBytes() throws Exception {
		assertThat(render("a%00b", "refs/heads/main", null)).isEqualTo("a\0b");
		assertThat(render("a%0a%09b", "refs/heads/main", null)).isEqualTo("a\n\tb");
	}

	@ParameterizedTest(name = "{0} prints {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			value = { "%(refname)|refs/heads/main", "%(refname:lstrip=2)|main", "%(refname:strip=1)|heads/main",
					"%(refname:lstrip=0)|refs/heads/main", "%(refname:lstrip=3)|``", "%(refname:lstrip=5)|``",
					"%(refname:lstrip=-1)|main", "%(refname:lstrip=-2)|heads/main",
					"%(refname:lstrip=-5)|refs/heads/main", "%(refname:rstrip=1)|refs/heads",
					"%(refname:rstrip=-1)|refs", "%(refname:rstrip=5)|``", "%(refname:rstrip=0)|refs/heads/main",
					"%(objectname)|08e550bff6b1f03289f0171a78c97939358b06d7", "%(objectname:short)|08e550b",
					"%(objectname:short=10)|08e550bff6", "%(objectname:short=2)|08e5",
					"%(objectname:short=99)|08e550bff6b1f03289f0171a78c97939358b06d7", "[%(symref)]|[]",
					"<%(refname)>%(refname)|<refs/heads/main>refs/heads/main" })
	void nameAndIdAtomsRender(String format, String expected) throws Exception {
		assertThat(render(format, "refs/heads/main", null)).isEqualTo(expected);
	}

	@Test
	void symrefAtomPrintsTheTargetWithModifiers() throws Exception {
		assertThat(render("%(symref) %(symref:lstrip=-1) %(symref:rstrip=1)", "refs/remotes/origin/HEAD",
				"refs/remotes/origin/main"))
			.isEqualTo("refs/remotes/origin/main main refs/remotes/origin");
	}

	@Test
	void nameBytesArePrintedUnchanged() throws Exception {
		assertThat(render("%(refname:lstrip=2)", "refs/heads/\u00fcber", null).getBytes(StandardCharsets.ISO_8859_1))
			.isEqualTo("\u00fcber".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void unclosedAtomIsAUsageErrorQuotingTheRest() {
		assertThatThrownBy(() -> parse("x %(refname")).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(129);
			assertThat(failure.text()).isEqualTo("error: malformed format string %(refname\nusage: test\n");
		});
	}

	@ParameterizedTest(name = "{0} fails with {1}")
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			value = { "%(bogus)|fatal: unknown field name: bogus",
					"%(refname:bogus)|fatal: unrecognized %(refname) argument: bogus",
					"%(refname:short=3)|fatal: unrecognized %(refname) argument: short=3",
					"%(refname:lstrip=x)|fatal: Integer value expected refname:lstrip=x",
					"%(objectname:short=x)|fatal: positive value expected 'x' in %(objectname:short=x)",
					"%(objectname:short=0)|fatal: positive value expected '0' in %(objectname:short=0)",
					"%(objectname:bogus)|fatal: unrecognized %(objectname:bogus) argument: bogus",
					"%(objecttype:short)|fatal: %(objecttype) does not take arguments",
					"%(*objecttype:x)|fatal: %(*objecttype) does not take arguments" })
	void badAtomsAreFatalAndNameTheCulprit(String format, String message) {
		assertThatThrownBy(() -> parse(format)).isInstanceOfSatisfying(CommandFailure.class, (failure) -> {
			assertThat(failure.exitCode()).isEqualTo(128);
			assertThat(failure.text()).startsWith(message);
		});
	}

	@Test
	void onlyTypeAndDerefAtomsNeedTheObjectDatabase() throws CommandFailure {
		assertThat(parse("%(refname) %(objectname:short) %(symref)").needsObjects()).isFalse();
		assertThat(parse("%(objecttype)").needsObjects()).isTrue();
		assertThat(parse("%(*objectname)").needsObjects()).isTrue();
	}

	@Test
	void stripHelpersCountComponents() {
		byte[] name = "a/b/c".getBytes(StandardCharsets.US_ASCII);
		assertThat(RefFields.lstrip(name, 5, 1)).isEqualTo(2);
		assertThat(RefFields.lstrip(name, 5, -1)).isEqualTo(4);
		assertThat(RefFields.rstrip(name, 5, 2)).isEqualTo(1);
		assertThat(RefFields.rstrip(name, 5, -2)).isEqualTo(3);
	}

	@Test
	void renderingWritesIntoTheSharedBuffer() throws IOException, CommandFailure {
		RefFields fields = new RefFields(HashAlgorithm.SHA1, null, null, true, 7);
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		OutBuffer out = new OutBuffer(bytes);
		FormatTemplate template = parse("%(refname)");
		byte[] buffer = "refs/heads/a".getBytes(StandardCharsets.US_ASCII);
		fields.set(buffer, buffer.length, ID.toRaw(), null, 0);
		template.render(fields, out);
		// the cursor reuses its buffer for the next ref
		buffer[11] = 'b';
		fields.set(buffer, buffer.length, ID.toRaw(), null, 0);
		template.render(fields, out);
		out.flush();
		assertThat(bytes.toString(StandardCharsets.US_ASCII)).isEqualTo("refs/heads/arefs/heads/b");
	}

}
