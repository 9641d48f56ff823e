package io.refstore.core.cli.options;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.RefName;

/**
 * Reads the command language of {@code git update-ref --stdin}, one command at a time, so
 * that a caller can answer {@code start}, {@code prepare}, {@code commit} and
 * {@code abort} before the next command arrives.
 *
 * <p>
 * Without {@code -z} a command is one line of space-separated fields, C-quoted if they
 * contain whitespace; an empty value means zero. With {@code -z} every field ends in NUL,
 * nothing is quoted, and an empty old value means "not given". Errors are git's
 * {@code fatal:} messages, naming the command, the ref and the bad text. Values are
 * resolved while parsing, so errors come in git's order.
 *
 * <p>
 * Not thread-safe.
 */
public final class StdinParser {

	/**
	 * The commands, with the number of fields that follow the command word ({@code -z}
	 * reads them as NUL-ended fields).
	 */
	public enum Verb {

		UPDATE("update", 3), CREATE("create", 2), DELETE("delete", 2), VERIFY("verify", 2),
		SYMREF_UPDATE("symref-update", 4), SYMREF_CREATE("symref-create", 2), SYMREF_DELETE("symref-delete", 2),
		SYMREF_VERIFY("symref-verify", 2), OPTION("option", 1), START("start", 0), PREPARE("prepare", 0),
		ABORT("abort", 0), COMMIT("commit", 0);

		private final String word;

		private final int fields;

		private final byte[] bytes;

		Verb(String word, int fields) {
			this.word = word;
			this.fields = fields;
			this.bytes = word.getBytes(StandardCharsets.US_ASCII);
		}

		/** The command word. */
		public String word() {
			return this.word;
		}

	}

	/**
	 * One parsed command. The ref it names (update, create, delete, verify) is in
	 * {@link #refBuffer()} until the next command is read, so that a million commands
	 * need no million strings.
	 *
	 * @param verb what to do
	 * @param newId the new value (update, create); zero deletes
	 * @param oldId the expected old value; zero means "must not exist", {@code null}
	 * means "not checked"
	 * @param newTarget the new target of a {@code symref-update} or {@code symref-create}
	 * @param oldTarget the expected old target of a {@code symref-*} command, or
	 * {@code null}
	 */
	public record Command(Verb verb, ObjectId newId, ObjectId oldId, String newTarget, String oldTarget) {

		Command(Verb verb, ObjectId newId, ObjectId oldId) {
			this(verb, newId, oldId, null, null);
		}

		/** Whether the command names a ref. */
		public boolean namesRef() {
			return this.verb != Verb.OPTION && this.verb != Verb.START && this.verb != Verb.PREPARE
					&& this.verb != Verb.ABORT && this.verb != Verb.COMMIT;
		}

		/** Whether the command is one of the {@code symref-*} commands. */
		public boolean symbolic() {
			return this.verb == Verb.SYMREF_UPDATE || this.verb == Verb.SYMREF_CREATE || this.verb == Verb.SYMREF_DELETE
					|| this.verb == Verb.SYMREF_VERIFY;
		}

	}

	/** Turns a value into an object id; empty if it names nothing. */
	@FunctionalInterface
	public interface ValueResolver {

		Optional<ObjectId> resolve(String value) throws IOException;

	}

	private static final Verb[] VERBS = Verb.values();

	private static final int MISSING_ALLOWED_EMPTY = 1;

	private static final int OLD_VALUE = 2;

	private final InputStream in;

	private final byte terminator;

	private final HashAlgorithm algorithm;

	private final ValueResolver resolver;

	private final Consumer<String> warnings;

	private final byte[] readBuffer = new byte[8192];

	private int readPos;

	private int readLimit;

	private byte[] line = new byte[256];

	private int length;

	private int pos;

	/**
	 * The field argument() or nulField() read last:
	 * {@code fieldBuf[fieldStart .. fieldEnd)}.
	 */
	private byte[] fieldBuf;

	private int fieldStart;

	private int fieldEnd;

	/** The current command's ref name: {@code refBuf[refStart .. refEnd)}. */
	private byte[] refBuf;

	private int refStart;

	private int refEnd;

	private String refText;

	/**
	 * @param in standard input
	 * @param nulTerminated {@code -z}
	 * @param algorithm the repository's hash (for zero ids)
	 * @param resolver resolves values
	 * @param warnings receives git's {@code warning:} texts (without the prefix)
	 */
	public StdinParser(InputStream in, boolean nulTerminated, HashAlgorithm algorithm, ValueResolver resolver,
			Consumer<String> warnings) {
		this.in = in;
		this.terminator = nulTerminated ? 0 : (byte) '\n';
		this.algorithm = algorithm;
		this.resolver = resolver;
		this.warnings = warnings;
	}

	/**
	 * Reads and parses the next command, reading no further than its end.
	 * @return the command, or {@code null} at the end of input
	 * @throws CommandFailure a fatal error naming what is wrong
	 * @throws IOException if input cannot be read or a value cannot be resolved
	 */
	public Command next() throws IOException, CommandFailure {
		this.length = 0;
		if (!readField()) {
			return null;
		}
		if (at(0) == this.terminator) {
			throw CommandFailure.fatal("empty command in input");
		}
		if (isSpace(at(0))) {
			throw CommandFailure.fatal("whitespace before command: " + text(0));
		}
		Verb verb = verb();
		if (verb == null) {
			throw CommandFailure.fatal("unknown command: " + text(0));
		}
		for (int field = 1; this.terminator == 0 && field < verb.fields; field++) {
			if (!readField()) {
				break;
			}
		}
		this.pos = verb.word.length() + ((verb.fields > 0) ? 1 : 0);
		return switch (verb) {
			case UPDATE -> update();
			case CREATE -> create();
			case DELETE -> delete();
			case VERIFY -> verify();
			case SYMREF_UPDATE -> symrefUpdate();
			case SYMREF_CREATE -> symrefCreate();
			case SYMREF_DELETE, SYMREF_VERIFY -> symrefCheck(verb);
			case OPTION -> option();
			default -> new Command(verb, null, null);
		};
	}

	private Verb verb() {
		for (Verb verb : VERBS) {
			byte[] word = verb.bytes;
			if (this.length >= word.length && Arrays.equals(this.line, 0, word.length, word, 0, word.length)
					&& at(word.length) == ((verb.fields > 0) ? ' ' : this.terminator)) {
				return verb;
			}
		}
		return null;
	}

	/**
	 * The current command's ref name: UTF-8 bytes at
	 * {@link #refStart()}..{@link #refEnd()}.
	 */
	public byte[] refBuffer() {
		return this.refBuf;
	}

	public int refStart() {
		return this.refStart;
	}

	public int refEnd() {
		return this.refEnd;
	}

	/** The current command's ref name as text (made once, for messages). */
	private String ref() {
		if (this.refText == null) {
			this.refText = new String(this.refBuf, this.refStart, this.refEnd - this.refStart, StandardCharsets.UTF_8);
		}
		return this.refText;
	}

	private Command update() throws IOException, CommandFailure {
		refname("update");
		ObjectId newId = nextValue("update", MISSING_ALLOWED_EMPTY);
		if (newId == null) {
			throw CommandFailure.fatal("update " + ref() + ": missing <new-oid>");
		}
		ObjectId oldId = nextValue("update", OLD_VALUE);
		endOfCommand("update");
		return new Command(Verb.UPDATE, newId, oldId);
	}

	private Command create() throws IOException, CommandFailure {
		refname("create");
		ObjectId newId = nextValue("create", 0);
		if (newId == null) {
			throw CommandFailure.fatal("create " + ref() + ": missing <new-oid>");
		}
		if (newId.isZero()) {
			throw CommandFailure.fatal("create " + ref() + ": zero <new-oid>");
		}
		endOfCommand("create");
		return new Command(Verb.CREATE, newId, null);
	}

	private Command delete() throws IOException, CommandFailure {
		refname("delete");
		ObjectId oldId = nextValue("delete", OLD_VALUE);
		if (oldId != null && oldId.isZero()) {
			throw CommandFailure.fatal("delete " + ref() + ": zero <old-oid>");
		}
		endOfCommand("delete");
		return new Command(Verb.DELETE, null, oldId);
	}

	private Command verify() throws IOException, CommandFailure {
		refname("verify");
		ObjectId oldId = nextValue("verify", OLD_VALUE);
		endOfCommand("verify");
		return new Command(Verb.VERIFY, null, (oldId != null) ? oldId : this.algorithm.zeroId());
	}

	private Command symrefUpdate() throws IOException, CommandFailure {
		String verb = Verb.SYMREF_UPDATE.word;
		refname(verb);
		String newTarget = nextRefname();
		if (newTarget == null) {
			throw CommandFailure.fatal(verb + " " + ref() + ": missing <new-target>");
		}
		ObjectId oldId = null;
		String oldTarget = null;
		String kind = nextArgument();
		if (kind != null) {
			if (kind.equals("oid")) {
				String value = nextArgument();
				if (value == null) {
					throw CommandFailure.fatal(verb + " " + ref() + ": expected old value");
				}
				oldId = value.isEmpty() ? this.algorithm.zeroId() : this.resolver.resolve(value)
					.orElseThrow(() -> CommandFailure.fatal(verb + " " + ref() + ": invalid oid: " + value));
			}
			else if (kind.equals("ref")) {
				oldTarget = nextRefname();
				if (oldTarget == null) {
					throw CommandFailure.fatal(verb + " " + ref() + ": expected old value");
				}
			}
			else {
				throw CommandFailure.fatal(verb + " " + ref() + ": invalid arg '" + kind + "' for old value");
			}
		}
		endOfCommand(verb);
		return new Command(Verb.SYMREF_UPDATE, null, oldId, newTarget, oldTarget);
	}

	private Command symrefCreate() throws CommandFailure {
		String verb = Verb.SYMREF_CREATE.word;
		refname(verb);
		String newTarget = nextRefname();
		if (newTarget == null) {
			throw CommandFailure.fatal(verb + " " + ref() + ": missing <new-target>");
		}
		endOfCommand(verb);
		return new Command(Verb.SYMREF_CREATE, null, this.algorithm.zeroId(), newTarget, null);
	}

	/**
	 * {@code symref-delete} and {@code symref-verify}: a ref and an optional old target.
	 */
	private Command symrefCheck(Verb verb) throws CommandFailure {
		refname(verb.word);
		String oldTarget = nextRefname();
		endOfCommand(verb.word);
		return new Command(verb, null, null, null, oldTarget);
	}

	/**
	 * The next argument as text: after a space (C-quoted or not), or with {@code -z}
	 * after the NUL ending the previous field; {@code null} if there is none.
	 */
	private String nextArgument() throws CommandFailure {
		if (this.terminator != 0) {
			if (at(this.pos) != ' ') {
				return null;
			}
			this.pos++;
			argument();
		}
		else {
			if (this.pos >= this.length || at(this.pos) != 0 || this.pos + 1 == this.length) {
				return null;
			}
			this.pos++;
			nulField();
		}
		return new String(this.fieldBuf, this.fieldStart, this.fieldEnd - this.fieldStart, StandardCharsets.UTF_8);
	}

	/**
	 * The next argument as a ref name (a symbolic ref's target); {@code null} if there is
	 * none or it is empty.
	 */
	private String nextRefname() throws CommandFailure {
		String name = nextArgument();
		if (name == null || name.isEmpty()) {
			return null;
		}
		// git names a bad target without the rule it breaks, unlike a bad ref
		if (!RefName.isValid(name, true)) {
			throw CommandFailure.fatal("invalid ref format: " + name);
		}
		return name;
	}

	private Command option() throws CommandFailure {
		byte[] word = "no-deref".getBytes(StandardCharsets.US_ASCII);
		if (this.length - this.pos >= word.length
				&& Arrays.equals(this.line, this.pos, this.pos + word.length, word, 0, word.length)
				&& at(this.pos + word.length) == this.terminator) {
			return new Command(Verb.OPTION, null, null);
		}
		throw CommandFailure.fatal("option unknown: " + text(this.pos));
	}

	private void endOfCommand(String verb) throws CommandFailure {
		if (at(this.pos) != this.terminator) {
			throw CommandFailure.fatal(verb + " " + ref() + ": extra input: " + text(this.pos));
		}
	}

	/** Reads and checks the ref name, leaving it in {@link #refBuffer()}. */
	private void refname(String verb) throws CommandFailure {
		if (this.terminator == 0) {
			nulField();
		}
		else {
			argument();
		}
		if (this.fieldEnd == this.fieldStart) {
			throw CommandFailure.fatal(verb + ": missing <ref>");
		}
		this.refBuf = this.fieldBuf;
		this.refStart = this.fieldStart;
		this.refEnd = this.fieldEnd;
		this.refText = null;
		for (int i = this.refStart; i < this.refEnd; i++) {
			if (this.refBuf[i] < 0) {
				// names are text: bytes that are not UTF-8 become U+FFFD, as in every
				// other command
				this.refBuf = ref().getBytes(StandardCharsets.UTF_8);
				this.refStart = 0;
				this.refEnd = this.refBuf.length;
				break;
			}
		}
		RefName.Rule rule = RefName.violation(this.refBuf, this.refStart, this.refEnd - this.refStart, true);
		if (rule != null) {
			// git's words: the name (its control characters shown as '?'), not the rule
			throw CommandFailure.fatal("invalid ref format: " + ref());
		}
	}

	/**
	 * Parses the separator and the value after it.
	 * @return the id (zero for an empty value where allowed), or {@code null} if the
	 * value is not given
	 */
	private ObjectId nextValue(String verb, int flags) throws IOException, CommandFailure {
		String which = ((flags & OLD_VALUE) != 0) ? "<old-oid>" : "<new-oid>";
		if (this.pos == this.length) {
			throw CommandFailure.fatal(verb + " " + ref() + ": unexpected end of input when reading " + which);
		}
		boolean given = (this.terminator != 0) ? spaceSeparatedValue(verb) : nulSeparatedValue(verb, which);
		if (!given) {
			return null;
		}
		if (this.fieldEnd - this.fieldStart == this.algorithm.hexLength()) {
			// a full hex id names itself: no text, no lookup
			ObjectId id = ObjectId.tryParseHex(this.algorithm, this.fieldBuf, this.fieldStart);
			if (id != null) {
				return id;
			}
		}
		String value = new String(this.fieldBuf, this.fieldStart, this.fieldEnd - this.fieldStart,
				StandardCharsets.UTF_8);
		if (value.isEmpty()) {
			// without -z an empty value is zero; with -z only update's new value may be
			// empty, with a warning
			if (this.terminator == 0) {
				if ((flags & MISSING_ALLOWED_EMPTY) == 0) {
					return null;
				}
				this.warnings.accept(verb + " " + ref() + ": missing <new-oid>, treating as zero");
			}
			return this.algorithm.zeroId();
		}
		Optional<ObjectId> id = this.resolver.resolve(value);
		if (id.isEmpty()) {
			throw CommandFailure.fatal(verb + " " + ref() + ": invalid " + which + ": " + value);
		}
		return id.get();
	}

	/**
	 * Without {@code -z}: a space and an argument (into the field), or {@code false} at
	 * the end of the line.
	 */
	private boolean spaceSeparatedValue(String verb) throws CommandFailure {
		if (at(this.pos) == 0 || at(this.pos) == '\n') {
			return false;
		}
		if (at(this.pos) != ' ') {
			throw CommandFailure.fatal(verb + " " + ref() + ": expected SP but got: " + text(this.pos));
		}
		this.pos++;
		argument();
		return true;
	}

	/** With {@code -z}: the NUL ending the previous field, then the next field. */
	private boolean nulSeparatedValue(String verb, String which) throws CommandFailure {
		if (at(this.pos) != 0) {
			throw CommandFailure.fatal(verb + " " + ref() + ": expected NUL but got: " + text(this.pos));
		}
		if (++this.pos == this.length) {
			throw CommandFailure.fatal(verb + " " + ref() + ": unexpected end of input when reading " + which);
		}
		nulField();
		return true;
	}

	/** A field up to the next NUL (for {@code -z}). */
	private void nulField() {
		int start = this.pos;
		while (at(this.pos) != 0) {
			this.pos++;
		}
		field(this.line, start, this.pos);
	}

	private void field(byte[] buf, int start, int end) {
		this.fieldBuf = buf;
		this.fieldStart = start;
		this.fieldEnd = end;
	}

	/** A whitespace-ended or C-quoted field (without {@code -z}). */
	private void argument() throws CommandFailure {
		int start = this.pos;
		if (at(this.pos) != '"') {
			while (at(this.pos) != 0 && !isSpace(at(this.pos))) {
				this.pos++;
			}
			field(this.line, start, this.pos);
			return;
		}
		CQuote.Unquoted unquoted = CQuote.unquote(this.line, start, this.length);
		if (unquoted == null) {
			throw CommandFailure.fatal("badly quoted argument: " + text(start));
		}
		this.pos = unquoted.end();
		if (at(this.pos) != 0 && !isSpace(at(this.pos))) {
			throw CommandFailure.fatal("unexpected character after quoted argument: " + text(start));
		}
		field(unquoted.bytes(), 0, unquoted.bytes().length);
	}

	/**
	 * The byte at {@code i}, or 0 past the end (the terminating NUL git's C strings
	 * have).
	 */
	private int at(int i) {
		return (i < this.length) ? this.line[i] : 0;
	}

	/** The text from {@code i} to the next NUL, as git's {@code %s} prints it. */
	private String text(int i) {
		int end = i;
		while (end < this.length && this.line[end] != 0) {
			end++;
		}
		return new String(this.line, i, end - i, StandardCharsets.UTF_8);
	}

	private static boolean isSpace(int c) {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r';
	}

	/**
	 * Appends the next field (up to and including the terminator, or to the end of input)
	 * to the line.
	 */
	private boolean readField() throws IOException {
		int start = this.length;
		while (true) {
			if (this.readPos == this.readLimit) {
				int n = this.in.read(this.readBuffer);
				if (n <= 0) {
					return this.length > start;
				}
				this.readPos = 0;
				this.readLimit = n;
			}
			byte b = this.readBuffer[this.readPos++];
			if (this.length == this.line.length) {
				this.line = Arrays.copyOf(this.line, this.line.length * 2);
			}
			this.line[this.length++] = b;
			if (b == this.terminator) {
				return true;
			}
		}
	}

}
