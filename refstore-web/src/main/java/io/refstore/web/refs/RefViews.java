package io.refstore.web.refs;

import java.io.IOException;
import java.util.Optional;

import io.refstore.core.objects.ObjectDatabase;
import io.refstore.core.objects.ObjectDatabase.ObjectType;
import io.refstore.core.ref.DirectRef;
import io.refstore.core.ref.ObjectId;
import io.refstore.core.ref.Ref;
import io.refstore.core.ref.RefCursor;
import io.refstore.core.ref.RefStore;
import io.refstore.core.ref.SymbolicRef;

/**
 * Builds {@link RefView}s: reads object types, peels annotated tags the store has no
 * peeled value for, and follows symbolic refs to their target's object. Stateless.
 */
final class RefViews {

	private RefViews() {
	}

	/**
	 * The view of the cursor's current ref; uses the store's peeled value when it knows
	 * it.
	 */
	static RefView of(RefCursor cursor, RefStore store, ObjectDatabase objects) throws IOException {
		Ref ref = cursor.ref();
		if (ref instanceof DirectRef direct && cursor.peelKnown()) {
			ObjectType type = objects.type(direct.id());
			return new RefView(direct.name(), object(direct.id(), type), hex(direct.peeled()), null);
		}
		return of(ref, store, objects);
	}

	/**
	 * The view of {@code ref}; an annotated tag without a stored peeled value is peeled
	 * by reading it.
	 */
	static RefView of(Ref ref, RefStore store, ObjectDatabase objects) throws IOException {
		if (ref instanceof SymbolicRef symbolic) {
			Optional<DirectRef> target = store.resolve(symbolic.target());
			if (target.isEmpty()) {
				return new RefView(symbolic.name(), null, null, symbolic.target());
			}
			RefView resolved = direct(target.get(), objects);
			return new RefView(symbolic.name(), resolved.object(), resolved.peeled(), symbolic.target());
		}
		return direct((DirectRef) ref, objects);
	}

	private static RefView direct(DirectRef ref, ObjectDatabase objects) throws IOException {
		ObjectType type = objects.type(ref.id());
		ObjectId peeled = ref.peeled();
		if (peeled == null && type == ObjectType.TAG) {
			peeled = objects.peel(ref.id());
		}
		return new RefView(ref.name(), object(ref.id(), type), hex(peeled), null);
	}

	private static RefView.ObjectView object(ObjectId id, ObjectType type) {
		return new RefView.ObjectView(id.name(), (type == null) ? null : type.gitName());
	}

	private static String hex(ObjectId id) {
		return (id == null) ? null : id.name();
	}

}
