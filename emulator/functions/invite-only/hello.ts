// Every seeded app offers the same sample function.
export { default } from '../coming-soon/hello';
