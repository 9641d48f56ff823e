package io.refstore.core.cli.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.refstore.core.cli.env.CommandContext;
import io.refstore.core.cli.env.CommandFailure;
import io.refstore.core.cli.format.FormatAtoms.ObjectNameArg;
import io.refstore.core.cli.format.FormatTemplate.Rich;
import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.objects.ObjectDatabase.StoredObject;
import io.refstore.core.objects.ObjectText;
import io.refstore.core.objects.ObjectText.Ident;
import io.refstore.core.ref.HashAlgorithm;
import io.refstore.core.ref.ObjectId;

/**
 * The values of the rich atoms ({@link Rich}) for the ref in a {@link RefFields}: the
 * ref's object (or, for {@code %(*...)}, what the tag names) is read once per ref and
 * only when an atom asks. The slow path of {@code for-each-ref}; the plain atoms never
 * come here. Not thread-safe.
 */
final class AtomValues {

	private final RefFields fields;

	private final ObjectDatabase objects;

	private final RefContext context;

	private long loadedFor = -1;

	private StoredObject object;

	private StoredObject derefObject;

	private ObjectId derefId;

	/** The last object parsed, and its parse: atoms of one ref share it. */
	private StoredObject parsedObject;

	private ObjectText parsedText;

	private long signaturesFor = -1;

	/** The ref's signature checks, of its object and of what it peels to. */
	private SignatureCheck[] signatures;

	AtomValues(RefFields fields, ObjectDatabase objects, RefContext context) {
		this.fields = fields;
		this.objects = objects;
		this.context = context;
	}

	/** The object database the atoms read. */
	ObjectDatabase objects() {
		return this.objects;
	}

	RefContext context() {
		return this.context;
	}

	/** The value of an atom for the current ref, as text (bytes as ISO-8859-1). */
	String value(Rich atom) throws IOException, CommandFailure {
		switch (atom.name()) {
			case "refname", "symref", "upstream", "push", "HEAD", "worktreepath", "color", "ahead-behind",
					"is-base" -> {
				return this.context.refValue(atom, this.fields);
			}
			default -> {
			}
		}
		load();
		StoredObject obj = atom.deref() ? this.derefObject : this.object;
		ObjectId id = atom.deref() ? this.derefId : this.fields.objectIdValue();
		if (obj == null) {
			return "";
		}
		return objectValue(atom, obj, id);
	}

	private void load() throws IOException, CommandFailure {
		if (this.loadedFor == this.fields.generation()) {
			return;
		}
		ObjectId id = this.fields.objectIdValue();
		this.object = read(this.objects, id, this.fields.refName());
		Peeled peeled = peel(this.objects, this.object, id);
		this.derefId = (peeled != null) ? peeled.id() : null;
		this.derefObject = (peeled != null) ? peeled.object() : null;
		this.loadedFor = this.fields.generation();
	}

	/**
	 * What a tag peels to: the last id named and its object ({@code null} if missing).
	 */
	private record Peeled(ObjectId id, StoredObject object) {
	}

	/**
	 * What {@code %(*...)} atoms read: git 2.55 peels a tag of a tag to the first
	 * non-tag. {@code null} if {@code object} is not a tag.
	 */
	private static Peeled peel(ObjectDatabase objects, StoredObject object, ObjectId id) throws IOException {
		Peeled peeled = null;
		StoredObject current = object;
		for (int depth = 0; current != null && current.type() == ObjectType.TAG && depth < 64; depth++) {
			ObjectId target = tagTarget(current, id);
			current = objects.read(target);
			peeled = new Peeled(target, current);
		}
		return peeled;
	}

	private static StoredObject read(ObjectDatabase objects, ObjectId id, String refName)
			throws IOException, CommandFailure {
		StoredObject object = objects.read(id);
		if (object == null) {
			throw missing(id, refName);
		}
		return object;
	}

	private static CommandFailure missing(ObjectId id, String refName) {
		return CommandFailure.fatal("missing object " + id.name() + " for " + refName);
	}

	private static ObjectId tagTarget(StoredObject tag, ObjectId id) {
		return ObjectId.fromHex(id.algorithm(), ObjectText.parse(tag.content()).header("object"));
	}

	private String objectValue(Rich atom, StoredObject obj, ObjectId id) throws IOException, CommandFailure {
		ObjectType type = obj.type();
		boolean text = type == ObjectType.COMMIT || type == ObjectType.TAG;
		ObjectText parsed = text ? parsed(obj) : null;
		String name = atom.name();
		switch (name) {
			case "objectname" -> {
				return hex(id, atom);
			}
			case "objecttype" -> {
				return type.gitName();
			}
			case "objectsize" -> {
				return (atom.arg() != null) ? Long.toString(diskSize(id)) : Integer.toString(obj.content().length);
			}
			case "deltabase" -> {
				return "0".repeat(id.algorithm().hexLength());
			}
			case "raw" -> {
				return (atom.arg() != null) ? Integer.toString(obj.content().length)
						: new String(obj.content(), StandardCharsets.ISO_8859_1);
			}
			case "describe" -> {
				return DescribeAtom.describe(this.context, atom.parsed(), id);
			}
			case "signature" -> {
				// git checks the signatures of commits only
				return (type == ObjectType.COMMIT) ? signature(obj, id, atom.deref()).value(atom.arg()) : "";
			}
			default -> {
			}
		}
		if (!text) {
			return "";
		}
		boolean commit = type == ObjectType.COMMIT;
		switch (name) {
			case "tree" -> {
				return commit ? hexOf(parsed.header("tree"), id, atom) : "";
			}
			case "parent" -> {
				if (!commit) {
					return "";
				}
				StringBuilder out = new StringBuilder();
				for (String parent : parsed.headers("parent")) {
					out.append(out.isEmpty() ? "" : " ").append(hexOf(parent, id, atom));
				}
				return out.toString();
			}
			case "numparent" -> {
				return commit ? Integer.toString(parsed.headers("parent").size()) : "";
			}
			case "object", "type", "tag" -> {
				// git prints a tag's object in full, whatever the argument
				return commit ? "" : nullToEmpty(parsed.header(name));
			}
			case "creator" -> {
				return nullToEmpty(parsed.header(commit ? "committer" : "tagger"));
			}
			case "creatordate" -> {
				return date(parsed.header(commit ? "committer" : "tagger"), atom);
			}
			default -> {
			}
		}
		for (String who : new String[] { "author", "committer", "tagger" }) {
			if (name.startsWith(who)) {
				return person(parsed.header(who), name.substring(who.length()), atom);
			}
		}
		return utf8(messageValue(atom, new MessageParts(parsed.message())));
	}

	/**
	 * The signature check of the ref's object (or what it peels to), run once per ref
	 * however many signature atoms ask; a commit without a signature header grades
	 * {@code N}.
	 */
	private SignatureCheck signature(StoredObject obj, ObjectId id, boolean deref) throws IOException, CommandFailure {
		int slot = deref ? 1 : 0;
		if (this.signaturesFor != this.fields.generation()) {
			this.signatures = new SignatureCheck[2];
			this.signaturesFor = this.fields.generation();
		}
		if (this.signatures[slot] == null) {
			String header = (id.algorithm() == HashAlgorithm.SHA256) ? "gpgsig-sha256" : "gpgsig";
			List<String> errors = new ArrayList<>();
			this.signatures[slot] = SignatureCheck.check(obj.content(), header, this.context.repository().config(),
					this.context.command().env(), errors);
			errors.forEach(this.context.command()::message);
		}
		return this.signatures[slot];
	}

	private String messageValue(Rich atom, MessageParts message) {
		switch (atom.name()) {
			case "subject" -> {
				return (atom.arg() != null) ? message.sanitizedSubject() : message.subject;
			}
			case "body" -> {
				return message.signedBody;
			}
			case "trailers" -> {
				return ((TrailerOptions) atom.parsed()).format(message.trailers());
			}
			case "contents" -> {
				Object arg = atom.parsed();
				if (arg instanceof Integer lines) {
					return message.lines(lines);
				}
				if (arg instanceof TrailerOptions trailers) {
					return trailers.format(message.trailers());
				}
				if (arg == null) {
					return message.contents;
				}
				return switch ((String) arg) {
					case "subject" -> message.subject;
					case "body" -> message.body;
					case "signature" -> message.signature;
					default -> Integer.toString(message.contents.getBytes(StandardCharsets.UTF_8).length);
				};
			}
			default -> {
				return "";
			}
		}
	}

	private String person(String line, String field, Rich atom) throws IOException {
		if (line == null) {
			return "";
		}
		switch (field) {
			case "" -> {
				return utf8(line);
			}
			case "date" -> {
				return date(line, atom);
			}
			default -> {
			}
		}
		Ident ident = Ident.parse(line);
		if (ident == null) {
			return "";
		}
		if (field.equals("name")) {
			return utf8((atom.arg() != null) ? this.context.mailmap().name(ident) : ident.name());
		}
		int options = (Integer) atom.parsed();
		String email = ((options & 4) != 0) ? this.context.mailmap().email(ident) : ident.email();
		if ((options & 3) != 0 && email.startsWith("<") && email.endsWith(">")) {
			email = email.substring(1, email.length() - 1);
		}
		if ((options & 2) != 0 && email.indexOf('@') >= 0) {
			email = email.substring(0, email.indexOf('@'));
		}
		return utf8(email);
	}

	private static String date(String line, Rich atom) {
		Ident.When when = (line != null) ? Ident.when(line) : null;
		return (when != null) ? ((GitDateFormat) atom.parsed()).format(when.seconds(), when.zoneMinutes()) : "";
	}

	/** The seconds of a date atom's time, for sorting by date. */
	long dateSeconds(Rich atom) throws IOException, CommandFailure {
		load();
		StoredObject obj = atom.deref() ? this.derefObject : this.object;
		return (obj == null || obj.type() == ObjectType.TREE || obj.type() == ObjectType.BLOB) ? 0
				: dateSeconds(atom, obj, parsed(obj));
	}

	/**
	 * A ref's object, read without an {@code AtomValues} (for threads sharing the work of
	 * sorting many refs by date).
	 * @param objects the object database, safe for use by several threads
	 * @param refName the ref's name, for the error about a missing object
	 */
	static StoredObject read(ObjectDatabase objects, ObjectId id, byte[] refName) throws IOException, CommandFailure {
		StoredObject object = objects.read(id);
		if (object == null) {
			throw missing(id, new String(refName, StandardCharsets.UTF_8));
		}
		return object;
	}

	/**
	 * {@link #dateSeconds(Rich)} of a ref whose object
	 * {@link #read(ObjectDatabase, ObjectId, byte[])} gave, without an
	 * {@code AtomValues}.
	 */
	static long dateSeconds(Rich atom, ObjectDatabase objects, StoredObject object, ObjectId id) throws IOException {
		StoredObject obj = object;
		if (atom.deref()) {
			Peeled peeled = peel(objects, object, id);
			obj = (peeled != null) ? peeled.object() : null;
		}
		return (obj == null || obj.type() == ObjectType.TREE || obj.type() == ObjectType.BLOB) ? 0
				: dateSeconds(atom, obj, ObjectText.parse(obj.content()));
	}

	private static long dateSeconds(Rich atom, StoredObject obj, ObjectText parsed) {
		String who = atom.name().equals("creatordate") ? ((obj.type() == ObjectType.COMMIT) ? "committer" : "tagger")
				: atom.name().substring(0, atom.name().length() - 4);
		String line = parsed.header(who);
		Ident.When when = (line != null) ? Ident.when(line) : null;
		return (when != null) ? when.seconds() : 0;
	}

	private ObjectText parsed(StoredObject obj) {
		if (obj != this.parsedObject) {
			this.parsedText = ObjectText.parse(obj.content());
			this.parsedObject = obj;
		}
		return this.parsedText;
	}

	private String hex(ObjectId id, Rich atom) {
		int digits = ((ObjectNameArg) atom.parsed()).digits();
		int hexLength = id.algorithm().hexLength();
		int n = (digits == 0) ? hexLength
				: (digits < 0) ? this.fields.defaultAbbrevDigits() : Math.max(digits, CommandContext.MINIMUM_ABBREV);
		return id.name().substring(0, Math.min(n, hexLength));
	}

	private String hexOf(String value, ObjectId like, Rich atom) {
		if (value == null) {
			return "";
		}
		ObjectId parsed = ObjectId.fromHex(like.algorithm(), value.strip());
		return hex(parsed, atom);
	}

	private long diskSize(ObjectId id) throws IOException {
		String hex = id.name();
		Path loose = this.context.objectsDir().resolve(hex.substring(0, 2)).resolve(hex.substring(2));
		return Files.isRegularFile(loose) ? Files.size(loose) : 0;
	}

	private static String nullToEmpty(String s) {
		return (s != null) ? utf8(s) : "";
	}

	/** Text kept as its UTF-8 bytes, one char per byte, so output is byte-exact. */
	static String utf8(String s) {
		return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
	}

	static List<String> none() {
		return List.of();
	}

}
