package io.refstore.web.journal;

import java.time.Instant;

/**
 * A ref the journal saw deleted and that does not exist now.
 *
 * @param ref the full ref name
 * @param deletedAt when its last deletion was recorded
 * @param writer who deleted it: {@code git}, {@code refstore-cli}, {@code api} or
 * {@code job}
 * @param identity the deleting user as the hook found it ({@code GL_USERNAME=alice}), or
 * empty
 * @param lastValue the newest object id the journal knows it held, or {@code null} if
 * none was reported (or it was a symbolic ref)
 * @param objectExists whether the repository still has that object: a ref can be restored
 * only then
 * @param entry the id of the deletion's entry
 */
public record DeletedRefView(String ref, Instant deletedAt, String writer, String identity, String lastValue,
		boolean objectExists, long entry) {

	/** Whether the ref can be created again at its last value. */
	public boolean restorable() {
		return this.lastValue != null && this.objectExists;
	}

}
