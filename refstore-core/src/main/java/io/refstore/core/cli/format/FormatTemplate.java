package io.refstore.core.cli.format;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.env.OutBuffer;

/**
 * A compiled {@code for-each-ref --format}: literal bytes ({@code %%} and {@code %xx}
 * already decoded) and atoms. Atoms: {@code %(refname)} and {@code %(symref)}, each
 * optionally {@code :short}, {@code :lstrip=N}, {@code :strip=N} or {@code :rstrip=N};
 * {@code %(objectname)} optionally {@code :short} or {@code :short=N};
 * {@code %(objecttype)}; and {@code %(*objectname)}, {@code %(*objecttype)} for the
 * object a tag points to.
 *
 * <p>
 * Immutable and thread-safe; rendering state lives in {@link RefFields}.
 */
public final class FormatTemplate {

	/** git's default format: {@code %(objectname) %(objecttype)TAB%(refname)}. */
	public static final String DEFAULT = "%(objectname) %(objecttype)\t%(refname)";

	/** What an atom prints. */
	enum Field {

		REFNAME, SYMREF, OBJECTNAME, OBJECTTYPE, DEREF_OBJECTNAME, DEREF_OBJECTTYPE

	}

	/** How a name atom is cut, or how an object name is abbreviated. */
	enum Modifier {

		/** As stored. */
		NONE,
		/**
		 * The shortest unambiguous name, or the default abbreviation of an object name.
		 */
		SHORT,
		/** An object name abbreviated to {@code number} digits. */
		SHORT_N,
		/**
		 * {@code number} leading components removed (negative: keep that many trailing
		 * ones).
		 */
		LSTRIP,
		/**
		 * {@code number} trailing components removed (negative: keep that many leading
		 * ones).
		 */
		RSTRIP

	}

	/** One piece of a format: literal bytes, or an atom. */
	public sealed interface Segment permits Literal, Atom, Rich, Control {

	}

	/** Bytes printed as they are. */
	record Literal(byte[] bytes) implements Segment {
	}

	/** A field of the ref. */
	record Atom(Field field, Modifier modifier, int number) implements Segment {
	}

	/**
	 * An atom evaluated by {@link AtomValues} (the slow path).
	 *
	 * @param name the atom's name without {@code *}
	 * @param arg its argument, or {@code null}
	 * @param deref whether it names the tagged object ({@code %(*...)})
	 * @param parsed the argument as parsed by {@link FormatAtoms}, or {@code null}
	 */
	record Rich(String name, String arg, boolean deref, Object parsed) implements Segment {
	}

	/**
	 * {@code %(if)}, {@code %(then)}, {@code %(else)}, {@code %(end)} or
	 * {@code %(align)}.
	 *
	 * @param kind the atom's name
	 * @param arg its argument, or {@code null}
	 * @param width an alignment's width
	 * @param position an alignment's position: 0 left, 1 middle, 2 right
	 */
	record Control(String kind, String arg, int width, int position) implements Segment {
	}

	private final List<Segment> segments;

	private final FormatQuote quote;

	private final boolean rich;

	private boolean omitEmpty;

	/** Whether the last {@code %(color:...)} leaves a color on at the end of the line. */
	private final boolean colorLeftOn;

	/** Whether the format has {@code %(if)}, {@code %(align)} and their kin. */
	private final boolean controls;

	/** Whether the format has {@code %(color:...)} atoms. */
	private final boolean colors;

	private FormatTemplate(List<Segment> segments, FormatQuote quote) {
		this.segments = List.copyOf(segments);
		this.quote = quote;
		this.rich = quote != null || segments.stream().anyMatch((s) -> s instanceof Rich || s instanceof Control);
		boolean any = false;
		boolean on = false;
		for (Segment segment : segments) {
			if (segment instanceof Rich r && r.name().equals("color")) {
				any = true;
				on = !"reset".equals(r.arg());
			}
		}
		this.colors = any;
		this.colorLeftOn = on;
		this.controls = segments.stream().anyMatch((s) -> s instanceof Control);
	}

	/** Whether the format has {@code %(color:...)} atoms. */
	boolean hasColors() {
		return this.colors;
	}

	/** Whether the format has {@code %(if)}, {@code %(align)} and their kin. */
	boolean hasControls() {
		return this.controls;
	}

	/**
	 * Whether a line needs a color reset at its end (when colors are on), as git adds one
	 * after a format whose last color atom is not {@code %(color:reset)}.
	 */
	boolean colorLeftOn() {
		return this.colorLeftOn;
	}

	/** Whether some atom is evaluated on the slow path (or values are quoted). */
	boolean rich() {
		return this.rich;
	}

	/** The quoting of values ({@code --shell} ...), or {@code null}. */
	FormatQuote quote() {
		return this.quote;
	}

	/**
	 * Makes {@link #renderLine} skip refs whose output is empty ({@code --omit-empty}).
	 */
	public void omitEmpty(boolean omit) {
		this.omitEmpty = omit;
	}

	/** Whether the format reads any object. */
	public boolean readsObjects() {
		return this.segments.stream()
			.anyMatch((s) -> s instanceof Rich r && !Set
				.of("refname", "symref", "upstream", "push", "HEAD", "worktreepath", "color", "ahead-behind", "is-base")
				.contains(r.name()));
	}

	/** The segments in order. */
	public List<Segment> segments() {
		return this.segments;
	}

	/** Whether some atom needs the object database (types or tag targets). */
	public boolean needsObjects() {
		return this.rich || this.segments.stream()
			.anyMatch((s) -> s instanceof Atom a && a.field() != Field.REFNAME && a.field() != Field.SYMREF
					&& a.field() != Field.OBJECTNAME);
	}

	/**
	 * Whether two threads may render this format's lines at once, each with its own
	 * {@link RefFields}: a rich format whose atoms read the ref and its objects only,
	 * none of the state they share (the current branch, upstreams, worktrees, the
	 * mailmap, signature checks, short names, the merge bases of {@code ahead-behind}).
	 */
	public boolean shareable() {
		if (!this.rich) {
			return false;
		}
		for (Segment segment : this.segments) {
			if (segment instanceof Atom atom && atom.modifier() == Modifier.SHORT
					&& (atom.field() == Field.REFNAME || atom.field() == Field.SYMREF)) {
				return false;
			}
			if (segment instanceof Rich atom && !shareable(atom)) {
				return false;
			}
		}
		return true;
	}

	private static final Set<String> STATELESS_ATOMS = Set.of("objectname", "objecttype", "objectsize", "deltabase",
			"raw", "tree", "parent", "numparent", "object", "type", "tag", "creator", "creatordate", "subject", "body",
			"trailers", "contents", "color");

	private static final List<String> PEOPLE = List.of("author", "committer", "tagger");

	private static boolean shareable(Rich atom) {
		String name = atom.name();
		if (name.equals("refname") || name.equals("symref")) {
			NameModifier.Kind kind = ((NameModifier) atom.parsed()).kind();
			return kind == NameModifier.Kind.FULL || kind == NameModifier.Kind.LSTRIP
					|| kind == NameModifier.Kind.RSTRIP;
		}
		if (STATELESS_ATOMS.contains(name)) {
			return true;
		}
		return PEOPLE.stream().anyMatch(name::startsWith) && (atom.arg() == null || !atom.arg().contains("mailmap"));
	}

	/**
	 * Prints a line of a rich format that {@link FormatRender} made, or nothing for an
	 * empty one with {@code --omit-empty}.
	 */
	void printRendered(byte[] line, OutBuffer out) throws IOException {
		if (line.length > 0 || !this.omitEmpty) {
			out.write(line, 0, line.length);
			out.write('\n');
		}
	}

	/**
	 * Whether the only atom that needs the object database is {@code %(objecttype)} (and
	 * there is one).
	 */
	public boolean needsTypesOnly() {
		return !this.rich && needsObjects()
				&& this.segments.stream()
					.noneMatch((s) -> s instanceof Atom a
							&& (a.field() == Field.DEREF_OBJECTNAME || a.field() == Field.DEREF_OBJECTTYPE));
	}

	/**
	 * Compiles a format.
	 * @param format the format as given
	 * @param usage the command's usage text, printed with a malformed format
	 * @return the template
	 * @throws CommandFailure a usage error for an unclosed {@code %(}, a fatal error
	 * naming an unknown atom or argument
	 */
	public static FormatTemplate parse(String format, String usage) throws CommandFailure {
		return parse(format, usage, null);
	}

	/**
	 * Compiles a format whose values are quoted.
	 * @param quote the quoting, or {@code null}
	 */
	public static FormatTemplate parse(String format, String usage, FormatQuote quote) throws CommandFailure {
		byte[] f = format.getBytes(StandardCharsets.UTF_8);
		List<Segment> segments = new ArrayList<>();
		ByteArrayOutputStream literal = new ByteArrayOutputStream();
		int i = 0;
		while (i < f.length) {
			if (f[i] != '%') {
				literal.write(f[i++]);
				continue;
			}
			int next = (i + 1 < f.length) ? f[i + 1] : -1;
			if (next == '(') {
				int close = indexOf(f, (byte) ')', i + 2);
				if (close < 0) {
					throw CommandFailure.usage("malformed format string " + format.substring(charIndex(f, i)), usage);
				}
				flush(literal, segments);
				String text = new String(f, i + 2, close - i - 2, StandardCharsets.UTF_8);
				Atom fast = fastAtom(text);
				segments.add((fast != null) ? fast : FormatAtoms.parse(text));
				i = close + 1;
			}
			else if (next == '%') {
				literal.write('%');
				i += 2;
			}
			else {
				int hi = (i + 1 < f.length) ? Character.digit(f[i + 1], 16) : -1;
				int lo = (i + 2 < f.length) ? Character.digit(f[i + 2], 16) : -1;
				if (hi >= 0 && lo >= 0) {
					literal.write((hi << 4) | lo);
					i += 3;
				}
				else {
					literal.write('%');
					i++;
				}
			}
		}
		flush(literal, segments);
		return new FormatTemplate(segments, quote);
	}

	private static void flush(ByteArrayOutputStream literal, List<Segment> segments) {
		if (literal.size() > 0) {
			segments.add(new Literal(literal.toByteArray()));
			literal.reset();
		}
	}

	private static int indexOf(byte[] b, byte c, int from) {
		for (int i = from; i < b.length; i++) {
			if (b[i] == c) {
				return i;
			}
		}
		return -1;
	}

	private static int charIndex(byte[] utf8, int byteIndex) {
		return new String(utf8, 0, byteIndex, StandardCharsets.UTF_8).length();
	}

	/**
	 * The atom if it is one of those that stream without reading objects (arguments
	 * checked), else {@code null}.
	 */
	private static Atom fastAtom(String text) throws CommandFailure {
		int colon = text.indexOf(':');
		String name = (colon < 0) ? text : text.substring(0, colon);
		String arg = (colon < 0) ? null : text.substring(colon + 1);
		if ((name.equals("refname") || name.equals("symref")) && arg != null
				&& !(arg.equals("short") || arg.matches("(l|r)?strip=-?[0-9]+"))) {
			return null;
		}
		return switch (name) {
			case "refname" -> nameAtom(Field.REFNAME, text, arg);
			case "symref" -> nameAtom(Field.SYMREF, text, arg);
			case "objectname" -> objectNameAtom(Field.OBJECTNAME, text, arg);
			case "*objectname" -> objectNameAtom(Field.DEREF_OBJECTNAME, text, arg);
			case "objecttype" -> noArgAtom(Field.OBJECTTYPE, name, arg);
			case "*objecttype" -> noArgAtom(Field.DEREF_OBJECTTYPE, name, arg);
			default -> null;
		};
	}

	private static Atom nameAtom(Field field, String text, String arg) throws CommandFailure {
		if (arg == null) {
			return new Atom(field, Modifier.NONE, 0);
		}
		if (arg.equals("short")) {
			return new Atom(field, Modifier.SHORT, 0);
		}
		for (String prefix : new String[] { "lstrip=", "strip=", "rstrip=" }) {
			if (arg.startsWith(prefix)) {
				Modifier modifier = prefix.equals("rstrip=") ? Modifier.RSTRIP : Modifier.LSTRIP;
				try {
					return new Atom(field, modifier, Integer.parseInt(arg.substring(prefix.length())));
				}
				catch (NumberFormatException ex) {
					throw CommandFailure.fatal("Integer value expected " + text);
				}
			}
		}
		throw CommandFailure.fatal("unrecognized %(" + text + ") argument: " + arg);
	}

	private static Atom objectNameAtom(Field field, String text, String arg) throws CommandFailure {
		if (arg == null) {
			return new Atom(field, Modifier.NONE, 0);
		}
		if (arg.equals("short")) {
			return new Atom(field, Modifier.SHORT, 0);
		}
		if (arg.startsWith("short=")) {
			String digits = arg.substring(6);
			int n = -1;
			try {
				n = Integer.parseInt(digits);
			}
			catch (NumberFormatException ex) {
				// reported below
			}
			if (n <= 0) {
				throw CommandFailure.fatal("positive value expected '" + digits + "' in %(" + text + ")");
			}
			return new Atom(field, Modifier.SHORT_N, n);
		}
		throw CommandFailure.fatal("unrecognized %(" + text + ") argument: " + arg);
	}

	private static Atom noArgAtom(Field field, String name, String arg) throws CommandFailure {
		if (arg != null) {
			throw CommandFailure.fatal("%(" + name + ") does not take arguments");
		}
		return new Atom(field, Modifier.NONE, 0);
	}

	/**
	 * Prints one ref.
	 * @param fields the current ref
	 * @param out where to print
	 * @throws CommandFailure if an object atom meets a missing object
	 */
	void render(RefFields fields, OutBuffer out) throws IOException, CommandFailure {
		if (this.rich) {
			byte[] line = FormatRender.render(this, fields);
			out.write(line, 0, line.length);
			return;
		}
		for (Segment segment : this.segments) {
			if (segment instanceof Literal literal) {
				out.write(literal.bytes(), 0, literal.bytes().length);
			}
			else {
				fields.print((Atom) segment, out);
			}
		}
	}

	/**
	 * Prints one ref and a line feed, or nothing with {@code --omit-empty} if the ref's
	 * output is empty.
	 */
	public void renderLine(RefFields fields, OutBuffer out) throws IOException, CommandFailure {
		if (this.rich || this.omitEmpty) {
			printRendered(this.rich ? FormatRender.render(this, fields) : plain(fields), out);
			return;
		}
		render(fields, out);
		out.write('\n');
	}

	private byte[] plain(RefFields fields) throws IOException, CommandFailure {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		OutBuffer buffer = new OutBuffer(bytes);
		render(fields, buffer);
		buffer.flush();
		return bytes.toByteArray();
	}

}
