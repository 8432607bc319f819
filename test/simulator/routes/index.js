'use strict';
const models = require('./models');

module.exports = {
  main: [
    ...require('./balance'),
    ...require('./money'),
    ...models.main,
    ...require('./chat'),
    ...require('./audio'),
    ...require('./images'),
    ...require('./tasks'),
    ...require('./uploads'),
    ...require('./videos'),
    ...require('./suno'),
  ],
  alt: [...models.alt, ...require('./alt')],
  files: require('./files'),
};
