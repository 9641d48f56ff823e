package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class ObjectTextTest {

	private static final String SIGNED = """
			tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904
			parent 1111111111111111111111111111111111111111
			parent 2222222222222222222222222222222222222222
			author A U Thor <author@example.com> 1112911993 -0700
			committer C O Mitter <committer@example.com> 1112912053 +0200
			gpgsig -----BEGIN PGP SIGNATURE-----
			\s
			 iQEzBAABCAAdFiEE
			 -----END PGP SIGNATURE-----
			odd
			 continued
			encoding ISO-8859-1

			Subject line

			Body \u00e9.
			""";

	private final ObjectText text = ObjectText.parse(SIGNED.getBytes(StandardCharsets.UTF_8));

	@Test
	void givesHeaderValuesAsWritten() {
		assertThat(this.text.header("tree")).isEqualTo("4b825dc642cb6eb9a060e54bf8d69288fbee4904");
		assertThat(this.text.header("committer")).isEqualTo("C O Mitter <committer@example.com> 1112912053 +0200");
		assertThat(this.text.header("encoding")).isEqualTo("ISO-8859-1");
		assertThat(this.text.header("mergetag")).isNull();
		assertThat(this.text.header("parent")).startsWith("1111");
		assertThat(this.text.headers("parent")).containsExactly("1111111111111111111111111111111111111111",
				"2222222222222222222222222222222222222222");
		assertThat(this.text.headers("mergetag")).isEmpty();
	}

	@Test
	void joinsContinuationLinesWithoutTheirLeadingSpace() {
		assertThat(this.text.header("gpgsig"))
			.isEqualTo("-----BEGIN PGP SIGNATURE-----\n\niQEzBAABCAAdFiEE\n-----END PGP SIGNATURE-----");
		assertThat(this.text.header("odd")).isEqualTo("\ncontinued");
	}

	@Test
	void keepsTheMessageAfterTheBlankLine() {
		assertThat(new String(this.text.message(), StandardCharsets.UTF_8)).isEqualTo("Subject line\n\nBody \u00e9.\n");
	}

	@Test
	void readsPersonLines() {
		ObjectText.Ident ident = ObjectText.Ident.parse(this.text.header("committer"));
		assertThat(ident.name()).isEqualTo("C O Mitter");
		assertThat(ident.email()).isEqualTo("<committer@example.com>");
		assertThat(ident.seconds()).isEqualTo(1112912053L);
		assertThat(ident.zoneMinutes()).isEqualTo(120);
	}

	@Test
	void readsADateInPlaceAsThePersonLineParserDoes() {
		for (String line : List.of("C O Mitter <c@example.com> 1112912053 +0200", "A <a> 0 -0730", "A <a> 7 +0000",
				"A <a>  1112912053 +0200", "A <a> 1112912053 +0200 ", "A <a> 1112912053  +0200", "A <a> 12x4 +0200",
				"A <a> 1234 0200", "A <a> 1234 +02a0", "A <a> 1234", "A <a>", "A <a> +1234 +0100",
				"A <a> 9999999999999999999 +0100", "A <a> 1234 +020", "<a> 1 -0001", "A a> 1 +0100",
				"A <a <b> > 5 +0100")) {
			ObjectText.Ident ident = ObjectText.Ident.parse(line);
			ObjectText.Ident.When when = ObjectText.Ident.when(line);
			if (ident == null || ident.zone() == null) {
				assertThat(when).as(line).isNull();
			}
			else {
				assertThat(when).as(line).isEqualTo(new ObjectText.Ident.When(ident.seconds(), ident.zoneMinutes()));
			}
		}
	}

}
