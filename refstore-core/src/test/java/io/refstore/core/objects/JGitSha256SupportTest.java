package io.refstore.core.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eclipse.jgit.errors.InvalidObjectIdException;
import org.eclipse.jgit.lib.Constants;
import org.junit.jupiter.api.Test;

import io.refstore.core.ref.HashAlgorithm;

/**
 * Why SHA-256 repositories need refstore's own reader: the JGit in use (7.8) has 20-byte object ids only.
 * If a JGit upgrade adds SHA-256, this test fails and {@link ObjectDatabases} can hand SHA-256 to JGit too.
 */
class JGitSha256SupportTest {

	@Test
	void jgitCannotRepresentSha256Ids() {
		assertThat(Constants.OBJECT_ID_LENGTH).isEqualTo(HashAlgorithm.SHA1.rawLength());
		String sha256 = "4d5a8188ef9a306949d56d9ca2e18546b8bacc1e6be56083048bae7cdb11e20d";
		assertThatThrownBy(() -> org.eclipse.jgit.lib.ObjectId.fromString(sha256))
			.isInstanceOf(InvalidObjectIdException.class);
	}

}
