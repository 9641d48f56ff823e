package io.refstore.batch.archfixture.one;

import io.refstore.batch.archfixture.two.Two;

/** Half of a package cycle that the package-cycle rule must find. */
public final class One {

	Two next;

}
