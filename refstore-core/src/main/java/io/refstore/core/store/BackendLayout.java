package io.refstore.core.store;

import java.io.IOException;
import java.nio.file.Path;

import io.refstore.core.files.FilesLayout;
import io.refstore.core.io.FileMoves;
import io.refstore.core.ref.RefFormat;
import io.refstore.core.reftable.ReftableLayout;

/**
 * The {@link StoreLayout} of each backend, on top of {@link FilesLayout} and
 * {@link ReftableLayout}: a swap between the formats needs both (a retired files store
 * leaves git's reftable stubs in its place).
 */
enum BackendLayout implements StoreLayout {

	FILES {

		@Override
		public void stage(Path staged, Path gitDir) throws IOException {
			FilesLayout.clear(gitDir);
			FilesLayout.stage(staged, gitDir);
		}

		@Override
		public void unstage(Path gitDir) throws IOException {
			FilesLayout.clear(gitDir);
			// staging replaced HEAD and the refs/heads stub, which git of reftable format
			// needs back
			ReftableLayout.writeStubs(gitDir);
		}

		@Override
		public void retire(Path gitDir, Path backup, Path strays) throws IOException {
			FilesLayout.retire(gitDir, backup);
			ReftableLayout.writeStubs(gitDir, strays);
		}

	},

	REFTABLE {

		@Override
		public void stage(Path staged, Path gitDir) throws IOException {
			ReftableLayout.stage(staged, gitDir);
		}

		@Override
		public void unstage(Path gitDir) throws IOException {
			FileMoves.deleteTree(gitDir.resolve("reftable"));
		}

		@Override
		public void retire(Path gitDir, Path backup, Path strays) throws IOException {
			ReftableLayout.retire(gitDir, backup);
		}

	};

	@Override
	public RefFormat format() {
		return (this == FILES) ? RefFormat.FILES : RefFormat.REFTABLE;
	}

	static BackendLayout of(RefFormat format) {
		return switch (format) {
			case FILES -> FILES;
			case REFTABLE -> REFTABLE;
		};
	}

}
