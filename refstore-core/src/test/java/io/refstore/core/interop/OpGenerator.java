package io.refstore.core.interop;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import io.refstore.core.interop.RefModel.Failure;
import io.refstore.core.interop.RefModel.Op;
import io.refstore.core.interop.RefModel.Op.Kind;
import io.refstore.core.interop.RefModel.Value;
import io.refstore.core.interop.StdinSession.Update;

/**
 * Draws the updates of one transaction from a seeded {@link Random}: either a transaction
 * git commits, or one git must refuse for a chosen reason. Every candidate is checked
 * against the {@link RefModel} before it is kept, so a transaction meant to succeed does
 * succeed in the model (and the test then checks git agrees). Not thread-safe.
 */
final class OpGenerator {

	private final Random random;

	private final NamePool names;

	private final ObjectPool pool;

	OpGenerator(Random random, NamePool names, ObjectPool pool) {
		this.random = random;
		this.names = names;
		this.pool = pool;
	}

	/** One to five updates that git commits together on {@code model}. */
	List<Update> good(RefModel model) {
		int wanted = 1 + Math.min(this.random.nextInt(5), this.random.nextInt(5));
		List<Update> updates = new ArrayList<>();
		for (int attempt = 0; attempt < 40 && updates.size() < wanted; attempt++) {
			Op candidate = goodOp(model);
			if (candidate != null && model.check(ops(updates, candidate)) == null) {
				updates.add(update(candidate, false));
			}
		}
		return updates;
	}

	/**
	 * A transaction git refuses: a few good updates plus one that fails for
	 * {@code reason}.
	 * @return the updates, or null if the reason is impossible on this model (try
	 * another)
	 */
	List<Update> failing(RefModel model, Failure reason) {
		List<Update> updates = new ArrayList<>();
		if (this.random.nextBoolean()) {
			updates.addAll(good(model));
		}
		List<Update> poison = poison(model, reason, updates);
		if (poison == null) {
			return null;
		}
		for (Update update : poison) {
			updates.add(this.random.nextInt(3) == 0 ? 0 : updates.size(), update);
		}
		boolean parseError = poison.stream().anyMatch(Update::invalidName);
		if (!parseError && model.check(ops(updates, null)) == null) {
			return null;
		}
		return updates;
	}

	private static List<Op> ops(List<Update> updates, Op extra) {
		List<Op> ops = new ArrayList<>();
		updates.forEach((update) -> ops.add(update.op()));
		if (extra != null) {
			ops.add(extra);
		}
		return ops;
	}

	private Update update(Op op, boolean invalidName) {
		boolean special = !op.name().chars().allMatch((c) -> c > 0x20 && c < 0x7f);
		boolean quote = special ? (invalidName || this.random.nextBoolean()) : this.random.nextInt(8) == 0;
		return new Update(op, this.random.nextBoolean(), quote, invalidName);
	}

	private Op goodOp(RefModel model) {
		int roll = this.random.nextInt(100);
		if (roll < 25) {
			return create(model);
		}
		if (roll < 33) {
			String name = absent(model);
			return (name == null) ? null
					: new Op(Kind.UPDATE, name, value(name), this.random.nextBoolean() ? null : RefModel.ZERO, false);
		}
		if (roll < 58) {
			return updateExisting(model);
		}
		if (roll < 70) {
			return deleteExisting(model);
		}
		if (roll < 76) {
			return verify(model);
		}
		if (roll < 95) {
			return throughSymref(model, symbolic(model));
		}
		return noDeref(model);
	}

	private Op create(RefModel model) {
		String name = absent(model);
		return (name == null) ? null : new Op(Kind.CREATE, name, value(name), null, false);
	}

	private Op updateExisting(RefModel model) {
		String name = existingDirect(model, true);
		if (name == null) {
			return null;
		}
		String current = model.get(name).id();
		String next = (this.random.nextInt(20) == 0) ? current : value(name);
		return new Op(Kind.UPDATE, name, next, this.random.nextInt(5) < 3 ? current : null, false);
	}

	private Op deleteExisting(RefModel model) {
		String name = existingDirect(model, false);
		if (name == null) {
			return null;
		}
		return new Op(Kind.DELETE, name, null, this.random.nextBoolean() ? model.get(name).id() : null, false);
	}

	private Op verify(RefModel model) {
		if (this.random.nextBoolean()) {
			String name = existingDirect(model, true);
			return (name == null) ? null : new Op(Kind.VERIFY, name, null, model.get(name).id(), false);
		}
		String name = absent(model);
		return (name == null) ? null
				: new Op(Kind.VERIFY, name, null, this.random.nextBoolean() ? RefModel.ZERO : null, false);
	}

	/**
	 * HEAD (half the time, if symbolic) or any ref of {@link NamePool#SYMREFS} that is
	 * symbolic now; else null.
	 */
	private String symbolic(RefModel model) {
		boolean headFirst = this.random.nextBoolean();
		if (headFirst && model.isSymbolic("HEAD")) {
			return "HEAD";
		}
		List<String> symbolic = new ArrayList<>();
		for (String name : NamePool.SYMREFS) {
			if (model.isSymbolic(name)) {
				symbolic.add(name);
			}
		}
		if (model.isSymbolic("HEAD")) {
			symbolic.add("HEAD");
		}
		return symbolic.isEmpty() ? null : pick(symbolic);
	}

	/**
	 * An update of whatever a symbolic ref points to: HEAD's branch, or the referent of
	 * another symref.
	 */
	private Op throughSymref(RefModel model, String symref) {
		if (symref == null) {
			return null;
		}
		String finalName = finalTarget(model, symref);
		String current = model.resolve(symref);
		int roll = this.random.nextInt(10);
		if (roll == 0 && current != null) {
			return new Op(Kind.VERIFY, symref, null, current, false);
		}
		if (roll == 1 && current != null) {
			return new Op(Kind.DELETE, symref, null, this.random.nextBoolean() ? current : null, false);
		}
		String old = (current == null) ? (this.random.nextBoolean() ? RefModel.ZERO : null)
				: (this.random.nextBoolean() ? current : null);
		return new Op(Kind.UPDATE, symref, value(finalName), old, false);
	}

	/**
	 * An update that replaces a symbolic ref itself ({@code option no-deref}): detaches
	 * HEAD, for one.
	 */
	private Op noDeref(RefModel model) {
		String symref = pick(List.of("HEAD", pick(NamePool.SYMREFS), pick(NamePool.SYMREFS)));
		Value value = model.get(symref);
		if (value == null) {
			return null;
		}
		String current = model.resolve(symref);
		if (value.isSymbolic() && !symref.equals("HEAD") && this.random.nextInt(4) == 0) {
			return new Op(Kind.DELETE, symref, null, null, true);
		}
		String old = this.random.nextBoolean() ? null : (current != null) ? current : RefModel.ZERO;
		String next = symref.startsWith("refs/sym/") ? value(pick(this.names.names())) : commit();
		return new Op(Kind.UPDATE, symref, next, old, true);
	}

	private String finalTarget(RefModel model, String name) {
		String current = name;
		for (int depth = 0; depth < 6; depth++) {
			Value value = model.get(current);
			if (value == null || !value.isSymbolic()) {
				return current;
			}
			current = value.target();
		}
		return current;
	}

	/**
	 * A pool name that does not exist and could be created without a directory/file
	 * conflict.
	 */
	private String absent(RefModel model) {
		for (int attempt = 0; attempt < 20; attempt++) {
			String name = pick(this.names.names());
			if (!model.exists(name) && model.conflictingRef(name) == null) {
				return name;
			}
		}
		return null;
	}

	/** An existing direct ref of the pool (HEAD too if detached and {@code headToo}). */
	private String existingDirect(RefModel model, boolean headToo) {
		List<String> candidates = new ArrayList<>();
		model.refs().forEach((name, value) -> {
			if (!value.isSymbolic() && (headToo || !name.equals("HEAD"))) {
				candidates.add(name);
			}
		});
		candidates.sort(null);
		return candidates.isEmpty() ? null : pick(candidates);
	}

	/**
	 * A value good for {@code name}: a commit where git wants one, else a commit or an
	 * annotated tag.
	 */
	String value(String name) {
		if (NamePool.wantsCommit(name) || this.random.nextBoolean()) {
			return commit();
		}
		return pick(this.pool.tags());
	}

	String commit() {
		return pick(this.pool.commits());
	}

	<T> T pick(List<T> list) {
		return list.get(this.random.nextInt(list.size()));
	}

	private List<Update> poison(RefModel model, Failure reason, List<Update> prefix) {
		Supplier<List<Update>> maker = switch (reason) {
			case STALE_OLD -> () -> one(stale(model));
			case CREATE_EXISTS -> () -> one(createExisting(model));
			case MISSING_REF -> () -> one(missingRef(model));
			case NAME_CONFLICT_EXISTING -> () -> one(conflictWithExisting(model));
			case NAME_CONFLICT_BATCH -> () -> conflictInBatch(model);
			case DUPLICATE -> () -> duplicate(model, prefix);
			case DUPLICATE_VIA_SYMREF -> () -> duplicateViaSymref(model);
			case INVALID_NAME -> () -> List.of(update(new Op(Kind.UPDATE, invalidName(), commit(), null, false), true));
			case NON_COMMIT_ON_BRANCH -> () -> one(nonCommitOnBranch(model));
			case MISSING_OBJECT -> () -> one(missingObject(model));
			default -> throw new IllegalArgumentException("not a transaction failure: " + reason);
		};
		return maker.get();
	}

	private List<Update> one(Op op) {
		return (op == null) ? null : List.of(update(op, false));
	}

	private Op stale(RefModel model) {
		String name = existingDirect(model, true);
		if (name == null) {
			return null;
		}
		String current = model.get(name).id();
		String wrong = commit();
		if (wrong.equals(current)) {
			return null;
		}
		Kind kind = pick(List.of(Kind.UPDATE, Kind.UPDATE, Kind.DELETE, Kind.VERIFY));
		return new Op(kind, name, (kind == Kind.UPDATE) ? value(name) : null, wrong, false);
	}

	private Op createExisting(RefModel model) {
		String name = existingDirect(model, false);
		if (name == null) {
			return null;
		}
		return this.random.nextBoolean() ? new Op(Kind.CREATE, name, value(name), null, false)
				: new Op(Kind.UPDATE, name, value(name), RefModel.ZERO, false);
	}

	private Op missingRef(RefModel model) {
		String name = absent(model);
		if (name == null) {
			return null;
		}
		Kind kind = pick(List.of(Kind.UPDATE, Kind.DELETE, Kind.VERIFY));
		return new Op(kind, name, (kind == Kind.UPDATE) ? value(name) : null, commit(), false);
	}

	private Op conflictWithExisting(RefModel model) {
		String existing = existingDirect(model, false);
		if (existing == null || !existing.startsWith("refs/")) {
			return null;
		}
		String name = existing + "/sub";
		int slash = existing.lastIndexOf('/');
		String parent = existing.substring(0, slash);
		if (this.random.nextBoolean() && parent.chars().filter((c) -> c == '/').count() >= 2 && !model.exists(parent)) {
			name = parent;
		}
		Kind kind = pick(List.of(Kind.CREATE, Kind.UPDATE, Kind.UPDATE, Kind.DELETE, Kind.VERIFY));
		return new Op(kind, name, (kind == Kind.CREATE || kind == Kind.UPDATE) ? value(name) : null, null, false);
	}

	private List<Update> conflictInBatch(RefModel model) {
		if (this.random.nextBoolean()) {
			String existing = existingDirect(model, false);
			if (existing == null || !existing.startsWith("refs/")) {
				return null;
			}
			return List.of(update(new Op(Kind.DELETE, existing, null, null, false), false),
					update(new Op(Kind.CREATE, existing + "/sub", commit(), null, false), false));
		}
		String name = absent(model);
		if (name == null) {
			return null;
		}
		return List.of(update(new Op(Kind.CREATE, name, value(name), null, false), false),
				update(new Op(Kind.CREATE, name + "/sub/leaf", commit(), null, false), false));
	}

	private List<Update> duplicate(RefModel model, List<Update> prefix) {
		String name = prefix.isEmpty() ? existingDirect(model, false) : pick(prefix).op().name();
		if (name == null) {
			return null;
		}
		return List.of(update(new Op(Kind.UPDATE, name, value(name), null, false), false));
	}

	private List<Update> duplicateViaSymref(RefModel model) {
		String symref = symbolic(model);
		if (symref == null) {
			return null;
		}
		Value value = model.get(symref);
		Op viaSymref = new Op(Kind.UPDATE, symref, value(finalTarget(model, symref)), null, false);
		Op direct = new Op(Kind.UPDATE, value.target(), value(finalTarget(model, symref)), null, false);
		return List.of(update(viaSymref, false), update(direct, false));
	}

	private String invalidName() {
		return pick(NamePool.INVALID);
	}

	private Op nonCommitOnBranch(RefModel model) {
		String tag = pick(this.pool.tags());
		if (this.random.nextInt(3) == 0) {
			return new Op(Kind.UPDATE, "HEAD", tag, null, this.random.nextBoolean());
		}
		String name = pick(this.names.names());
		if (!name.startsWith("refs/heads/") || model.conflictingRef(name) != null) {
			return null;
		}
		return new Op(model.exists(name) ? Kind.UPDATE : Kind.CREATE, name, tag, null, false);
	}

	private Op missingObject(RefModel model) {
		String name = pick(this.names.names());
		if (model.conflictingRef(name) != null || model.exists(name) && this.random.nextBoolean()) {
			return null;
		}
		return new Op(Kind.UPDATE, name, pick(this.pool.missing()), null, false);
	}

}
