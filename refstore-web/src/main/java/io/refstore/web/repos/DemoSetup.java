package io.refstore.web.repos;

import java.io.IOException;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import io.refstore.core.demo.DemoRepositories;
import io.refstore.core.ref.RefFormat;
import io.refstore.web.security.DemoProperties;

/**
 * The demo setup of a first start: when {@code refstore.demo.enabled} (the default) and
 * no repository exists under the roots, creates {@value #FILES} and {@value #REFTABLE} in
 * the first root, with real objects and a few thousand refs (see
 * {@link DemoRepositories}). Runs while the application starts, before anything reads the
 * repositories.
 */
@Component
class DemoSetup {

	/** The demo repository in the files format. */
	static final String FILES = "demo-files.git";

	/** The demo repository in the reftable format. */
	static final String REFTABLE = "demo-reftable.git";

	private static final Logger log = LoggerFactory.getLogger(DemoSetup.class);

	DemoSetup(RepoRegistry registry, DemoProperties demo) throws IOException {
		if (!demo.enabled() || !registry.names().isEmpty()) {
			return;
		}
		Path root = registry.roots().get(0);
		for (String name : new String[] { FILES, REFTABLE }) {
			RefFormat format = name.equals(FILES) ? RefFormat.FILES : RefFormat.REFTABLE;
			int refs = DemoRepositories.create(root.resolve(name), format, DemoRepositories.Options.DEFAULT);
			log.info("demo setup: created {} ({}, {} refs)", root.resolve(name), format, refs);
		}
	}

}
